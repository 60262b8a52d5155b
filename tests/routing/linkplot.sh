#!/usr/bin/env bash
# hnm-linkplot on hand-written link-load files: the numbers it plots (its
# .dat files) are checked exactly, the pictures exist and are PNG; bad input
# exits 2 and writes nothing.
source "$(dirname "$0")/../sim/lib.sh"
tmp=$WORK
H="link,role,a,b,c,bandwidth_Bps,bytes,busy_s,mean_util,peak_util"
# Dragonfly, 3 groups, 4 routers per group: two links 0 -> 1 (0.2 and 0.4:
# mean 0.3), one 1 -> 2 (0.5), one 2 -> 0 (1); local links out of router 1 of
# group 0 (0.1 and 0.7: largest 0.7) and of router 3 of group 2 (0.25); a
# node link, which the map leaves out.
cat >"$tmp/d.csv" <<CSV
$H
g01a,global,0,1,0,1e9,1,1,0.2,0.5
g01b,global,0,1,1,1e9,1,1,0.4,0.9
g12,global,1,2,0,1e9,1,1,0.5,1
g20,global,2,0,0,1e9,1,1,1,1
l0a,local,0,1,2,1e9,1,1,0.1,0.2
l0b,local,0,1,3,1e9,1,1,0.7,0.8
l2,local,2,3,0,1e9,1,1,0.25,0.3
n0,node-up,0,-1,-1,1e9,1,1,0.9,1
CSV
"$HNM_LINKPLOT" map "$tmp/d.csv" -o "$tmp/dmap" 2>/dev/null
want="0 0.3 0
0 0 0.5
1 0 0

0 0.7 0 0
0 0 0 0
0 0 0 0.25"
check "dragonfly map: global matrix and local maxima" [ "$(grep -v '^#' "$tmp/dmap.dat" | sed '/^$/N;/^\n$/D')" = "$want" ]
check "dragonfly map: PNG" [ "$(head -c 4 "$tmp/dmap.png" | od -An -c | tr -d ' ')" = "211PNG" ]
"$HNM_LINKPLOT" map "$tmp/d.csv" -o "$tmp/dpeak" --metric peak 2>/dev/null
check "dragonfly map, peak: 0 -> 1 is (0.5 + 0.9) / 2" [ "$(grep -v '^#' "$tmp/dpeak.dat" | head -1)" = "0 0.7 0" ]

# Torus 2 dimensions, 4 hosts: host 1's two dimension-0 links 0.3 and 0.6.
cat >"$tmp/t.csv" <<CSV
$H
a,torus,0,1,2,1e9,1,1,0.3,1
b,torus,0,1,0,1e9,1,1,0.6,1
c,torus,1,3,1,1e9,1,1,0.125,1
CSV
"$HNM_LINKPLOT" map "$tmp/t.csv" -o "$tmp/tmap" 2>/dev/null
check "torus map: dimension x host" [ "$(grep -v '^#' "$tmp/tmap.dat")" = "0 0.6 0 0
0 0 0 0.125" ]
check "torus map: PNG" [ -s "$tmp/tmap.png" ]

# Distributions over the network links (the node link left out).
refuse "dist: a run without the roles asked" "t\.csv: no link with a role in global" \
  "$HNM_LINKPLOT" dist -o "$tmp/dist" A="$tmp/t.csv" B="$tmp/d.csv" --roles global
"$HNM_LINKPLOT" dist -o "$tmp/dist" torus="$tmp/t.csv" dragonfly="$tmp/d.csv" 2>/dev/null
check "dist: CDFs" [ "$(grep -v '^#' "$tmp/dist-cdf.dat" | sed '/^$/d')" = "0.125 0.333333
0.3 0.666667
0.6 1
0.1 0.142857
0.2 0.285714
0.25 0.428571
0.4 0.571429
0.5 0.714286
0.7 0.857143
1 1" ]
check "dist: histogram bins 0.10 (torus 1/3, dragonfly 1/7) and 1.00 (dragonfly 1/7)" \
  [ "$(awk '$1 == "0.10" || $1 == "1.00"' "$tmp/dist-hist.dat")" = "0.10 0.333333 0.142857
1.00 0 0.142857" ]
check "dist: CDF PNG" [ -s "$tmp/dist-cdf.png" ]
check "dist: histogram PNG" [ -s "$tmp/dist-hist.png" ]

# bad WHAT REGEX ARGS...: hnm-linkplot ARGS refused (refuse, tests/lib.sh).
bad() {
  local what=$1 re=$2
  shift 2
  refuse "$what" "$re" "$HNM_LINKPLOT" "$@"
}
printf 'x,y\n' >"$tmp/notload.csv"
bad "not a link-load file" "notload\.csv:1: not a link-load file" map "$tmp/notload.csv" -o "$tmp/bad"
printf '%s\nl,global,0,1,0,1e9,1,1,-0.5,1\n' "$H" >"$tmp/neg.csv"
bad "negative utilisation" "neg\.csv:2: mean_util: '-0\.5'" map "$tmp/neg.csv" -o "$tmp/bad"
# The ranges of every numeric column (platforms/hnm_linkload_csv.h):
# inf, 1e300 and negatives refused with the line and the column.
while IFS='|' read -r name row re; do
  printf '%s\n%s\n' "$H" "$row" >"$tmp/range.csv"
  bad "range: $name" "^hnm-linkplot: .*range\.csv:2: $re" map "$tmp/range.csv" -o "$tmp/bad"
done <<'EOF'
bandwidth inf|l,global,0,1,0,inf,1,1,0.5,1|bandwidth_Bps: 'inf' is not a finite number$
bandwidth 0|l,global,0,1,0,0,1,1,0.5,1|bandwidth_Bps: '0' is not in \(0, 1e\+20\] \(hnm_linkload_csv\.h\)$
bandwidth 1e300|l,global,0,1,0,1e300,1,1,0.5,1|bandwidth_Bps: '1e300' is not in \(0, 1e\+20\]
bytes negative|l,global,0,1,0,1e9,-1,1,0.5,1|bytes: '-1' is not in \[0, 9\.22337e\+18\]
bytes fraction|l,global,0,1,0,1e9,1.5,1,0.5,1|bytes: '1\.5' is not a finite whole number$
bytes 1e300|l,global,0,1,0,1e9,1e300,1,0.5,1|bytes: '1e300' is not in \[0,
busy inf|l,global,0,1,0,1e9,1,inf,0.5,1|busy_s: 'inf' is not a finite number$
busy 1e300|l,global,0,1,0,1e9,1,1e300,0.5,1|busy_s: '1e300' is not in \[0, 1e\+12\]
busy negative|l,global,0,1,0,1e9,1,-1,0.5,1|busy_s: '-1' is not in \[0, 1e\+12\]
mean 1e300|l,global,0,1,0,1e9,1,1,1e300,1|mean_util: '1e300' is not in \[0, 1000\]
peak 1001|l,global,0,1,0,1e9,1,1,0.5,1001|peak_util: '1001' is not in \[0, 1000\]
peak nan|l,global,0,1,0,1e9,1,1,0.5,nan|peak_util: 'nan' is not a finite number$
EOF
printf '%s\nl,node-up,0,-1,-1,1e9,1,1,0.5,1\n' "$H" >"$tmp/nodes.csv"
bad "no topology links" "nodes\.csv: no dragonfly, torus or fat-tree links" map "$tmp/nodes.csv" -o "$tmp/bad"
bad "unknown metric" "^hnm-linkplot: --metric: 'max' is not one of mean\|peak$" map "$tmp/d.csv" -o "$tmp/bad" --metric max
bad "missing -o" "^hnm-linkplot: -o: PREFIX is required$" map "$tmp/d.csv"
bad "dist without LABEL=" "d\.csv' is not LABEL=LOAD\.csv" dist -o "$tmp/bad" "$tmp/d.csv"
bad "unknown command" "^hnm-linkplot: unknown command 'draw' \(map, dist; see hnm-linkplot --help\)$" draw "$tmp/d.csv" -o "$tmp/bad"

# The command line from core's command and option tables: errors are one
# line "hnm-linkplot: OPTION: reason", exit 2, as every tool's.
bad "no command" "^hnm-linkplot: a command is needed \(map, dist; see hnm-linkplot --help\)$"
bad "unknown option" "^hnm-linkplot: --bogus: unknown" map "$tmp/d.csv" -o "$tmp/bad" --bogus
bad "--roles is dist's" "^hnm-linkplot: --roles: unknown" map "$tmp/d.csv" -o "$tmp/bad" --roles global
bad "--metric without its argument" "^hnm-linkplot: --metric: needs an argument$" map "$tmp/d.csv" -o "$tmp/bad" --metric
bad "map of two files" "LOAD\.csv: map takes one \(2 given\)" map "$tmp/d.csv" "$tmp/t.csv" -o "$tmp/bad"
bad "dist of nothing" "LABEL=LOAD\.csv: dist needs at least one" dist -o "$tmp/bad"
for h in --help -h; do
  "$HNM_LINKPLOT" $h >"$tmp/help" 2>"$tmp/err"
  check "$h: the commands' table" [ "$(sed -n '/^Commands:$/,/^$/p' "$tmp/help" | sed -n 's/^  \([a-z]*\)  .*/\1/p' | tr '\n' ' ')" = "map dist " ]
  check "$h: nothing on stderr" [ ! -s "$tmp/err" ]
done
"$HNM_LINKPLOT" dist --help >"$tmp/help"
check "dist --help: --roles from the table" grep -q -- "--roles LIST" "$tmp/help"

# Core's CSV reader: an empty field is a field (strtok merged them and
# miscounted), a quoted link name may hold a comma, lines are not cut at 1 KiB.
printf '%s\ng01,global,0,,0,1e9,1,1,0.2,0.5\n' "$H" >"$tmp/empty.csv"
bad "empty field b" "empty\.csv:2: b: '' is not a whole number" map "$tmp/empty.csv" -o "$tmp/bad"
printf '%s\ng01,,0,1,0,1e9,1,1,0.2,0.5\n' "$H" >"$tmp/norole.csv"
bad "empty role" "norole\.csv:2: role: empty" map "$tmp/norole.csv" -o "$tmp/bad"
printf '%s\n"g,01,global,0,1,0,1e9,1,1,0.2,0.5\n' "$H" >"$tmp/quote.csv"
bad "unclosed quote" "quote\.csv:2: a quoted field is not closed" map "$tmp/quote.csv" -o "$tmp/bad"
long=$(printf 'x%.0s' $(seq 2000))
printf '%s\n"g,01",global,0,1,0,1e9,1,1,0.2,0.5\n"%s""",global,1,0,0,1e9,1,1,0.4,0.5\n' "$H" "$long" >"$tmp/names.csv"
"$HNM_LINKPLOT" map "$tmp/names.csv" -o "$tmp/names" 2>"$tmp/err"
check "quoted names, a 2 KB line: read ($(cat "$tmp/err"))" [ "$(grep -v '^#' "$tmp/names.dat" | sed '/^$/d')" = "0 0.2
0.4 0" ]

# No cap on the number of runs (it was 64).
runs=()
for i in $(seq 70); do runs+=("r$i=$tmp/t.csv"); done
"$HNM_LINKPLOT" dist -o "$tmp/many" "${runs[@]}" 2>"$tmp/err"
rc=$?
check "dist of 70 runs: exit 0 (got $rc: $(cat "$tmp/err"))" [ "$rc" -eq 0 ]
check "dist of 70 runs: 70 CDFs" [ "$(grep -c '^# r[0-9]*: 3 links$' "$tmp/many-cdf.dat")" -eq 70 ]
check "dist of 70 runs: 70 histogram columns" [ "$(awk '$1 == "0.10" { print NF }' "$tmp/many-hist.dat")" -eq 71 ]

# The one output rule: an output onto the input, directly or
# through a symbolic or hard link, is refused naming both; a FIFO or a
# device in place of a PNG is refused (a FIFO blocked gnuplot for ever, a
# link to /dev/full lost the figure with exit 0).
cp "$tmp/t.csv" "$tmp/x.dat"
bad "map: PREFIX.dat is the input" "^hnm-linkplot: -o: '.*/x\.dat' is LOAD\.csv '.*/x\.dat': writing it would destroy it$" \
  map "$tmp/x.dat" -o "$tmp/x"
ln -s x.dat "$tmp/y.gp"
bad "map: PREFIX.gp a symbolic link to the input" "^hnm-linkplot: -o: '.*/y\.gp' is LOAD\.csv '.*/x\.dat'" \
  map "$tmp/x.dat" -o "$tmp/y"
ln "$tmp/x.dat" "$tmp/z.png"
bad "map: PREFIX.png a hard link to the input" "^hnm-linkplot: -o: '.*/z\.png' is LOAD\.csv '.*/x\.dat'" \
  map "$tmp/x.dat" -o "$tmp/z"
ln -s x.dat "$tmp/w-hist.png"
bad "dist: PREFIX-hist.png a link to an input" "^hnm-linkplot: -o: '.*/w-hist\.png' is LOAD\.csv '.*/x\.dat'" \
  dist -o "$tmp/w" A="$tmp/t.csv" B="$tmp/x.dat"
mkfifo "$tmp/f.png"
bad "map: a FIFO for the PNG" "^hnm-linkplot: -o: '.*/f\.png': not a regular file \(a FIFO would block\)$" \
  map "$tmp/t.csv" -o "$tmp/f"
ln -s /dev/full "$tmp/full.png"
bad "map: the PNG a link to /dev/full" \
  "^hnm-linkplot: -o: '.*/full\.png': not a regular file \(a device or socket cannot take it\)$" \
  map "$tmp/t.csv" -o "$tmp/full"
# gnuplot exits 0 when it cannot write its figure (a full disk): a PNG cut
# short is a write error, exit 1 (a stand-in gnuplot that writes 6 bytes).
mkdir "$tmp/cutbin"
cat >"$tmp/cutbin/gnuplot" <<'SH'
#!/bin/sh
sed -n 's/^set output "\(.*\)"$/\1/p' "$1" | while IFS= read -r f; do printf '\211PNG\r\n' >"$f"; done
SH
chmod +x "$tmp/cutbin/gnuplot"
PATH="$tmp/cutbin:$PATH" "$HNM_LINKPLOT" map "$tmp/t.csv" -o "$tmp/cut" 2>"$tmp/err"
rc=$?
check "a PNG cut short: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check_eq "a PNG cut short: one line" "$(cat "$tmp/err")" \
  "hnm-linkplot: -o: '$tmp/cut.png': write error: gnuplot left an incomplete PNG (a full disk?)"
check "a PNG cut short: the stand-in wrote it" [ "$(wc -c <"$tmp/cut.png")" -eq 6 ]

# Without gnuplot: exit 1, one line from core's runner, data and script written.
PATH=/nonexistent "$HNM_LINKPLOT" map "$tmp/t.csv" -o "$tmp/nognu" 2>"$tmp/err"
rc=$?
check "no gnuplot: exit 1 (got $rc)" [ "$rc" -eq 1 ]
check "no gnuplot: one line ($(cat "$tmp/err"))" [ "$(cat "$tmp/err")" = \
  "hnm-linkplot: cannot run gnuplot: No such file or directory (install gnuplot-nox; the script is $tmp/nognu.gp)" ]
check "no gnuplot: data and script written" [ -s "$tmp/nognu.dat" -a -s "$tmp/nognu.gp" ]
finish
