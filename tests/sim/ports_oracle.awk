# ports_oracle.awk -- what LogGPS with ports predicts for the schedules of
# tests/sim/schedules.c, worked out from the rules of docs/models.md alone:
# Degomme et al. 2013, Figure 1 for one message, and the port rule for the
# messages that share a port. Used by tests/sim/loggps_ports.sh.
#
#   awk -f ports_oracle.awk -v sched=S -v P=N -v k=BYTES -v mode=single|duplex|multi \
#       -v L=.. -v o=.. -v g=.. -v G=.. -v s=.. -v S=.. -v Os=.. -v Or=.. [-v gap=..] \
#       [-v count=N] -v base=START ORDER
#
# ORDER is the simulation's trace (HNM_VERBOSE=2): lines
#   hnm: message HOST-i -> HOST-j, K bytes[ (MPI_Isend)]: starts T, delivered T'
# (messages of other sizes than k, or before the start, are not the
# schedule's). Only the ORDER of the transfers is taken from it: when several transfers
# start at one instant, SimGrid's actor scheduling decides which takes a port
# first, and that is SimGrid's business, not the model's. Start instants are
# computed here from the schedule and compared with the trace's (the count of
# disagreements is printed as "starts-differing N").
#
# Prints "RANK seconds" per rank: the instant it finished, from the common
# start (the trace's instants are absolute: the schedule started at `base`,
# and only transfers that start within 50 ms of it are its own).
#
# One message of k bytes whose transfer starts at t (deliver()):
#   W = k g (k < s) or s g + (k - s) G;  eager (k <= S): head 0, rest 0;
#   rendez-vous: head 2L + 5o + k Os (4o when posted by MPI_Isend, which
#   already cost o), rest o + k Or. hold = max(W, gap).
#   multi:  delivered at t + head + L + W + rest;
#   single: x = max(t + head, F[a], F[b]); F[a] = F[b] = x + hold;
#           delivered at x + L + W + rest;
#   duplex: x = max(t + head, PS[a]); PS[a] = x + hold;
#           y = max(x + L, PR[b]);    PR[b] = y + hold; delivered at y + W + rest.
# SMPI, as the schedules use it: MPI_Send costs T1 = o + k Os and MPI_Isend o
# before the message is posted (MPI_Send above S costs nothing); an eager
# message's transfer starts when it is posted, a rendez-vous one when both
# sides have posted, and both sides of a rendez-vous end when it is
# delivered; each receive of an eager message then costs T3 = o + k Or.

function max(a, b) { return a > b ? a : b }
function flip(r, m) { return int(r / m) % 2 ? r - m : r + m }   # r xor m, m a power of two
function lowbit(r,    b) { for (b = 1; int(r / b) % 2 == 0; b *= 2); return b }

function deliver(a, b, t, isend,    W, head, rest, hold, x, y) {
  W = k < s ? k * g : s * g + (k - s) * G
  head = 0; rest = 0
  if (k > S) { head = 2 * L + (isend ? 4 : 5) * o + k * Os; rest = o + k * Or }
  hold = max(W, gap)
  if (mode == "multi")
    return t + head + L + W + rest
  if (mode == "single") {
    x = max(t + head, max(F[a], F[b])); F[a] = x + hold; F[b] = x + hold
    return x + L + W + rest
  }
  x = max(t + head, PS[a]); PS[a] = x + hold
  y = max(x + L, PR[b]); PR[b] = y + hold
  return y + W + rest
}

# Compare a start instant computed here with the trace's.
function seen(t, traced) {
  if (t - traced > 1e-9 * traced || traced - t > 1e-9 * traced) differ++
}

# Eager receives through MPI_Waitall, from instant `from`: each arrival in
# time order, then T3 (any work-conserving order ends at the same instant).
function fold(r, from,    i, j, v, t, n) {
  n = na[r]
  for (i = 2; i <= n; i++) {
    v = arr[r, i]
    for (j = i - 1; j >= 1 && arr[r, j] > v; j--) arr[r, j + 1] = arr[r, j]
    arr[r, j + 1] = v
  }
  t = from
  for (i = 1; i <= n; i++) t = max(t, arr[r, i]) + T3
  return t
}

BEGIN {
  T1 = o + k * Os; T3 = o + k * Or
  if (gap == "") gap = 0
  for (r = 0; r < P; r++) { fin[r] = 0; na[r] = 0; c[r] = 0; round[r] = 1; have[r] = r == 0 ? 0 : -1; j[r] = 0 }
  for (rounds = 0; 2 ^ rounds < P; rounds++);
  if (sched == "a2a-pair") rounds = P - 1
}

# One traced transfer a -> b that started at `traced` (absolute).
$1 == "hnm:" && $2 == "message" {
  split($3, x, "-"); a = x[2] + 0
  split($5, x, "[-,]"); b = x[2] + 0
  traced = $(NF - 2); sub(",", "", traced); traced -= base
  if (traced < 0 || traced >= 0.05 || $6 + 0 != k) next    # other items, MPI_Init, MPI_Finalize
  if (sched == "pingpong") {
    if (a == 0) { t = k <= S ? T1 : 0; D = deliver(0, 1, t, 0); seen(t, traced)
                  if (k <= S) { r1 = D + T3; fin[1] = r1 + T1 } else { r1 = D; fin[1] = D } }
    else { t = k <= S ? r1 + T1 : r1; D = deliver(1, 0, t, 0); seen(t, traced)
           fin[0] = k <= S ? D + T3 : D; if (k > S) fin[1] = D }
  } else if (sched == "bcast" || sched == "bcast-isend") {
    # Rank a got the data at have[a]; it posts its children largest subtree
    # first, child number j[a] at have + j T1 (MPI_Send, eager), have + j o
    # (MPI_Isend), or when the previous transfer ended (MPI_Send above S).
    # Every child posted its MPI_Recv at 0.
    j[a]++
    if (sched == "bcast-isend") t = have[a] + j[a] * o
    else if (k <= S) t = have[a] + j[a] * T1
    else t = j[a] == 1 ? have[a] : last[a]
    seen(t, traced)
    D = deliver(a, b, t, sched == "bcast-isend")
    have[b] = k <= S ? D + T3 : D
    fin[b] = max(fin[b], have[b])
    if (k > S) { last[a] = D; fin[a] = max(fin[a], D) } else fin[a] = max(fin[a], t)
  } else if (sched == "a2a-linear") {
    # All receives posted at 0; the j-th MPI_Isend to a + j posted at j o.
    t = ((b - a + P) % P) * o
    seen(t, traced)
    D = deliver(a, b, t, 1)
    if (k > S) { fin[a] = max(fin[a], D); fin[b] = max(fin[b], D) }
    else arr[b, ++na[b]] = D
  } else if (sched == "a2a-pair" || sched == "rdouble") {
    # MPI_Sendrecv = MPI_Isend (o) then MPI_Irecv, both posted at c + o, c
    # being the instant the rank finished its previous round. a's round is
    # the first it has not sent in yet.
    i = round[a]
    t = k <= S ? c[a] + o : max(c[a], c[b]) + o
    seen(t, traced)
    D = deliver(a, b, t, 1)
    sent[a, i] = D; got[b, i] = D
    for (n = 0; n < 2; n++) {
      r = n == 0 ? a : b
      while (round[r] <= rounds && ((r, round[r]) in sent) && ((r, round[r]) in got)) {
        i = round[r]
        c[r] = k <= S ? max(c[r] + o, got[r, i]) + T3 : max(sent[r, i], got[r, i])
        round[r]++
      }
    }
  } else if (sched == "burst") {
    # rank 0 posts `count` eager MPI_Isend o apart; rank 1 receives in order.
    j[0]++
    t = j[0] * o
    seen(t, traced)
    D = deliver(0, 1, t, 1)
    fin[0] = t; fin[1] = max(fin[1], D) + T3
  }
}

END {
  if (sched == "a2a-linear" && k <= S)
    for (r = 0; r < P; r++) fin[r] = fold(r, (P - 1) * o)
  if (sched == "a2a-pair" || sched == "rdouble")
    for (r = 0; r < P; r++) fin[r] = c[r]
  printf "starts-differing %d\n", differ
  for (r = 0; r < P; r++) printf "%d %.17g\n", r, fin[r]
}
