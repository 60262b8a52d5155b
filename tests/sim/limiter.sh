#!/usr/bin/env bash
# 1 to 16 concurrent bidirectional MPI_Sendrecv pairs of 4 MiB between
# distinct nodes of one switch (tests/data/platforms/flat32.xml: node links
# B = 125 MB/s, 10 us, node limiters). Per node, send + receive bandwidth is:
#   hybrid, limiter factor 1.5: the limiter (1.5 B) is shared by the node's
#     outgoing and incoming flow: each gets 0.75 B, so
#     t = 20us + (k + 16) / (0.75 B)  and  2k / t ~ 1.5 B;
#   fluid: no limiter, each direction has its own link: with the bundled
#     model's factors fL, fB (model/models/fluid.xml),
#     t = fL x 20us + (k + 16)/(fB B), and 2k / t ~ 2 fB B;
#   loggps (G = 1/B, Os = Or = 0), both transfers posted by MPI_Isend (which
#     costs o, so each transfer is X - o with X = 6o + 3L + kG, the
#     rendez-vous time of loggps_closed_form.sh):
#     ports=single (the default): the two directions share the node's port
#       and alternate (Degomme et al. 2013, Section III-C: "B_s + B_r = B"):
#       t = o + (X - o) + kG = X + kG, 2k / t ~ B;
#     ports=duplex: a send and a receive port per node: t = X, 2k / t ~ 2 B.
# Checked exactly (1e-9) against these forms and within 2% of 1.5 B / B / 2 B.
source "$(dirname "$0")/lib.sh"

B=125000000 k=4194304
FL=$(fluid_factor lat-factor) FB=$(fluid_factor bw-factor)
for pairs in $(seq 1 16); do
  np=$((2 * pairs))
  run() { hnm "$1" "$DATA/platforms/flat32.xml" "$DATA/platforms/flat32.hosts" "$np" "$SIM_BIN/bidir" "$k"; }

  read -r _ _ t bw < <(run "$DATA/models/hybrid-limiter15.xml")
  check_close "hybrid $pairs pairs: time" "$t" "$(calc "20e-6 + ($k + 16) / (0.75 * $B)")" 1e-9
  check_close "hybrid $pairs pairs: B_s + B_r = 1.5 B" "$bw" "$(calc "1.5 * $B")" 0.02

  read -r _ _ t bw < <(run fluid)
  check_close "fluid $pairs pairs: time" "$t" "$(calc "$FL * 20e-6 + ($k + 16) / ($FB * $B)")" 1e-9
  check_close "fluid $pairs pairs: B_s + B_r = 2 fB B" "$bw" "$(calc "2 * $FB * $B")" 0.02

  X=$(calc "6 * 2e-6 + 3 * 30e-6 + $k * 8e-9")
  read -r _ _ t bw < <(run "loggps:L=30us,o=2us,g=8ns,G=8ns,s=0,S=64KiB,Os=0,Or=0")
  check_close "loggps single $pairs pairs: time" "$t" "$(calc "$X + $k * 8e-9")" 1e-9
  check_close "loggps single $pairs pairs: B_s + B_r = B" "$bw" "$B" 0.02
  if [ "$pairs" -eq 1 ] || [ "$pairs" -eq 16 ]; then
    read -r _ _ t bw < <(run "loggps:L=30us,o=2us,g=8ns,G=8ns,s=0,S=64KiB,Os=0,Or=0,ports=duplex")
    check_close "loggps duplex $pairs pairs: time" "$t" "$X" 1e-9
    check_close "loggps duplex $pairs pairs: B_s + B_r = 2 B" "$bw" "$(calc "2 * $B")" 0.02
  fi
done
finish
