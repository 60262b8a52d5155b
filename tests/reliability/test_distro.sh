#!/usr/bin/env bash
# scripts/test-distro's refusals, before it bootstraps or mounts anything:
# bad usage, an unknown suite and a HNM_TEST_DISTRO_EXCLUDE that is no label
# regex (exit 2, one line); a CACHE_DIR/SUITE it did
# not make (exit 1, left as it was, nothing mounted under it); a second run
# on the same chroot while one holds its lock (exit 1). The runs themselves
# are CI's (.ci/run: trixie and sid).
source "$(dirname "$0")/../lib.sh"
TD=$SOURCE_DIR/scripts/test-distro
[ "$(id -u)" -eq 0 ] || skip "test-distro runs as root"

"$TD" >"$WORK/o" 2>"$WORK/e"
check_eq "no suite: exit 2" "$?" 2
check "no suite: usage in one line" bash -c "[ \$(wc -l <'$WORK/e') = 1 ] && grep -q '^test-distro: usage: ' '$WORK/e'"
"$TD" jessie "$WORK/cache" >"$WORK/o" 2>"$WORK/e"
check_eq "unknown suite: exit 2" "$?" 2
check "unknown suite: names it" grep -q "^test-distro: unknown suite 'jessie'" "$WORK/e"
check "unknown suite: nothing made" test ! -e "$WORK/cache"
"$TD" sid "$WORK/cache" extra >"$WORK/o" 2>"$WORK/e"
check_eq "two suites: exit 2" "$?" 2
# (CACHE_DIR a plain file: were the value taken, the run would stop at
# once, exit 1, rather than bootstrap a chroot.)
echo keep >"$WORK/cache-file"
for bad in "host-only;rm" "a b" '$(id)'; do
  HNM_TEST_DISTRO_EXCLUDE=$bad "$TD" sid "$WORK/cache-file" >"$WORK/o" 2>"$WORK/e"
  check_eq "HNM_TEST_DISTRO_EXCLUDE='$bad': exit 2" "$?" 2
  check "HNM_TEST_DISTRO_EXCLUDE='$bad': says so in one line" \
    bash -c "[ \$(wc -l <'$WORK/e') = 1 ] && grep -q '^test-distro: HNM_TEST_DISTRO_EXCLUDE: ' '$WORK/e'"
  check_eq "HNM_TEST_DISTRO_EXCLUDE='$bad': CACHE_DIR untouched" "$(cat "$WORK/cache-file")" keep
done

mkdir -p "$WORK/cache/sid/etc"
echo keep >"$WORK/cache/sid/etc/mine"
"$TD" sid "$WORK/cache" >"$WORK/o" 2>"$WORK/e"
check_eq "a foreign CACHE_DIR/sid: exit 1" "$?" 1
check "a foreign CACHE_DIR/sid: says it was not made by test-distro" grep -q "was not made by test-distro" "$WORK/e"
check_eq "a foreign CACHE_DIR/sid: left as it was" "$(cat "$WORK/cache/sid/etc/mine")" keep
check "nothing mounted under the cache" bash -c "! grep -q ' $WORK/cache' /proc/mounts"

mkdir -p "$WORK/cache2"
flock "$WORK/cache2/trixie.lock" sleep 30 &
holder=$!
at_exit "kill $holder 2>/dev/null"
sleep 0.5
"$TD" trixie "$WORK/cache2" >"$WORK/o" 2>"$WORK/e"
check_eq "a held lock: exit 1" "$?" 1
check "a held lock: names it" grep -q "another test-distro run holds $WORK/cache2/trixie.lock" "$WORK/e"
check "a held lock: nothing bootstrapped" test ! -e "$WORK/cache2/trixie"
finish
