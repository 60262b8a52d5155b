#!/usr/bin/env bash
# Every tool, option and file path that README.md and docs/ name exists:
#  - a tool (hnm-X, as a word: not a file name such as hnm-model.dtd) is an
#    executable of the build tree's bin/;
#  - an option (--x) written after a tool's name on the same command line
#    (up to a pipe, ';', '&&', a quote, "--" or the program it runs: a word
#    starting with ./, / or build/, or holding apps/) appears in that tool's
#    --help or one of its commands' --help (hnm-run also passes SimGrid's
#    --cfg=, --log= and --cfg-help to smpirun);
#  - a path of the tree (core/..., docs/..., bench/..., tests/..., .ci/...)
#    exists in the source tree or in the build tree (a program the build
#    makes: apps/gcr), or names a module whose files exist (calibration/
#    hnm_fit: hnm_fit.c). A path with a placeholder (an upper-case word such
#    as MAJOR, or a '*') is a pattern, not a name: skipped.
# Each missing name is one line: FILE:LINE: what, and why.
# Environment: SOURCE_DIR, BUILD_DIR (tests/docs/CMakeLists.txt).
source "$(dirname "$0")/../lib.sh"

cd "$SOURCE_DIR" || exit 1
DOCS=(README.md $(find docs -name '*.md' | sort))
BIN=$BUILD_DIR/bin

# --- tools ----------------------------------------------------------------------------
declare -A HELP=()
help_of() { # TOOL: the text of its --help and of each command's --help
  local t=$1 text cmds c
  [ -n "${HELP[$t]:-}" ] && return 0
  text=$("$BIN/$t" --help 2>&1)
  # The commands (or families): the indented words of the list after a heading line.
  cmds=$(awk '/^[A-Z][a-z]+:$/ { on = 1; next } on && /^  [a-z][a-z0-9-]* / { print $1 } on && /^$/ { on = 0 }' <<<"$text")
  for c in $cmds; do text+=$'\n'$("$BIN/$t" "$c" --help 2>&1); done
  HELP[$t]=$text
}

# scan FILE...: one line per missing name; the counts in NTOOLS, NOPTS, NPATHS.
scan() {
  ntools=0 nopts=0 npaths=0
  while IFS=: read -r file line tool; do
    ntools=$((ntools + 1))
    [ -x "$BIN/$tool" ] || echo "$file:$line: tool $tool is not built (no bin/$tool)"
  done < <(grep -HnoE '(^|[^A-Za-z0-9_./-])hnm-[a-z]+([^A-Za-z0-9_./-]|$)' "$@" |
             sed -E 's/^([^:]*):([0-9]*):.*(hnm-[a-z]+).*/\1:\2:\3/' |
             grep -vE ':hnm-(model|set|distro)$' | sort -u)

  # --- options after a tool's name ------------------------------------------------------------
  while IFS=$'\t' read -r file line tool opt; do
    [ -x "$BIN/$tool" ] || continue
    nopts=$((nopts + 1))
    case "$tool:$opt" in hnm-run:--cfg | hnm-run:--log | hnm-run:--cfg-help | hnm-run:--help-cfg) continue ;; esac
    help_of "$tool"
    grep -qE -- "(^|[ ,])$opt([ =,]|$)" <<<"${HELP[$tool]}" || echo "$file:$line: $tool $opt is in no --help of $tool"
  done < <(for f in "$@"; do
             awk -v f="$f" '{
               line = $0
               while (match(line, /hnm-[a-z]+/)) {
                 tool = substr(line, RSTART, RLENGTH)
                 prev = RSTART > 1 ? substr(line, RSTART - 1, 1) : ""
                 rest = substr(line, RSTART + RLENGTH)
                 line = rest
                 if (prev ~ /[A-Za-z0-9_.\/-]/ || rest ~ /^[A-Za-z0-9_.\/-]/) continue
                 cmd = rest
                 sub(/(\||;|&&|`|"|\x27).*/, "", cmd)
                 n = split(cmd, w, /[ \t]+/)
                 for (i = 1; i <= n; i++) {
                   # The tool'"'"'s options end at "--" and at the program it runs.
                   if (w[i] == "--" || w[i] ~ /^(\.\/|\/|build\/|\$)/ || w[i] ~ /apps\//) break
                   if (match(w[i], /^--[a-z][a-z0-9-]*/))
                     print f "\t" NR "\t" tool "\t" substr(w[i], 1, RLENGTH)
                 }
               }
             }' "$f"
           done | sort -u)

  # --- paths of the tree -------------------------------------------------------------------------
  while IFS=: read -r file line path; do
    path=${path%.}
    [[ $path =~ [A-Z]{2,} || $path == *'*'* ]] && continue
    npaths=$((npaths + 1))
    if [ -e "$path" ] || [ -e "$BUILD_DIR/$path" ] || compgen -G "$path.*" >/dev/null; then
      continue
    fi
    echo "$file:$line: path $path exists in neither the source nor the build tree"
  done < <(grep -HnoE '(^|[^A-Za-z0-9_/.-])(core|model|plugin|platforms|tools|calibration|apps|bench|scripts|tests|docs|include|packaging|\.ci)/[A-Za-z0-9_./*-]*[A-Za-z0-9_*]' "$@" |
             sed -E 's/^([^:]*):([0-9]*):[^a-z.]*/\1:\2:/' | sort -u)
  NTOOLS=$ntools NOPTS=$nopts NPATHS=$npaths
}

# The scan finds what is planted: a tool, an option and a path that do not exist.
mkdir -p "$WORK/planted"
printf '%s\n' 'Run `hnm-nosuchtool`.' 'Then `hnm-run --no-such-option -np 2 ./a.out`.' 'See docs/no-such-page.md.' \
  'Fine: `hnm-run --model graphene -np 2 ./a.out -- --not-ours`, docs/models.md.' >"$WORK/planted/p.md"
scan "$WORK/planted/p.md" >"$WORK/planted.txt"
planted=$(cat "$WORK/planted.txt")
check_eq "planted: 3 missing names found ($planted)" "$(grep -c . <<<"$planted")" 3
check "planted: the tool" grep -qF "p.md:1: tool hnm-nosuchtool is not built" <<<"$planted"
check "planted: the option" grep -qF "p.md:2: hnm-run --no-such-option is in no --help of hnm-run" <<<"$planted"
check "planted: the path" grep -qF "p.md:3: path docs/no-such-page.md exists in neither" <<<"$planted"

# The README and docs/.
scan "${DOCS[@]}" >"$WORK/missing.txt"
missing=$(cat "$WORK/missing.txt")
while IFS= read -r m; do [ -n "$m" ] && check "$m" false; done <<<"$missing"
echo "docs: $NTOOLS tool names, $NOPTS options, $NPATHS paths in ${#DOCS[@]} files, $(grep -c . <<<"$missing") missing"
check "docs: names found (tools $NTOOLS, options $NOPTS, paths $NPATHS)" [ "$NTOOLS" -gt 0 ] && [ "$NOPTS" -gt 0 ] && [ "$NPATHS" -gt 0 ]
finish
