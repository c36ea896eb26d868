#!/bin/sh
# limits.sh - the bounds every sandbox gets by default: the size of a file
# the command writes (RLIMIT_FSIZE) and the memory of the whole sandbox (a
# memory cgroup, not RLIMIT_AS); each from its option and from the settings
# file; a session killed for its memory says "memory limit" in the history.
#
# The memory half needs a memory cgroup this user may make (cgroup v2 with
# the memory controller delegated, or the v1 memory hierarchy): where
# --explain says there is none, it is skipped with that reason.

. "$top_srcdir/tests/tap.sh"

PROBE="$top_builddir/tests/sandbox/probe"
T=$(mktemp -d "$OUTSIDE/ptyvisor-limits.XXXXXX") || exit 1
cleanup_cmd "rm -rf '$T'"
mkdir -p "$T/ws" "$T/config/ptyvisor" "$T/state" || exit 1
cd "$T/ws" || exit 1
# Our own settings file only, so the defaults are the program's.
export XDG_CONFIG_HOME="$T/config"
export PTYVISOR_STATE_DIR="$T/state"
diag "running as $(id -un)"

verdict() { awk -v s="$2" '$1 == s { print $2 " " $3; exit }' "$1"; }

# --- file size ---------------------------------------------------------------
# A sparse file 17 GiB long takes no disk but is over the 16 GiB default.
"$PROBE" fsize=17408 > "$T/plain.txt" 2>&1
is "$(verdict "$T/plain.txt" fsize=17408)" "allowed " \
	"unsandboxed: a 17 GiB (sparse) file can be written"
"$PTYVISOR" sandbox -- "$PROBE" fsize=17408 fsize=100 > "$T/sb.txt" 2>&1
is "$(verdict "$T/sb.txt" fsize=17408)" "denied EFBIG" \
	"sandboxed: not past the default file size (16 GiB)"
is "$(verdict "$T/sb.txt" fsize=100)" "allowed " \
	"sandboxed: a 100 MiB file is fine"
"$PTYVISOR" sandbox --max-file-size 10M -- "$PROBE" fsize=20 fsize=5 \
	> "$T/opt.txt" 2>&1
is "$(verdict "$T/opt.txt" fsize=20)" "denied EFBIG" \
	"--max-file-size 10M: not 20 MiB"
is "$(verdict "$T/opt.txt" fsize=5)" "allowed " "--max-file-size 10M: 5 MiB"
printf '[sandbox]\nmax_file_size = 1M\n' > "$T/config/ptyvisor/config"
"$PTYVISOR" sandbox -- "$PROBE" fsize=2 > "$T/cfg.txt" 2>&1
is "$(verdict "$T/cfg.txt" fsize=2)" "denied EFBIG" \
	"settings max_file_size = 1M: not 2 MiB"
"$PTYVISOR" sandbox --max-file-size 0 -- "$PROBE" fsize=17408 \
	> "$T/zero.txt" 2>&1
is "$(verdict "$T/zero.txt" fsize=17408)" "allowed " \
	"--max-file-size 0 overrides the settings file: inherited"
printf '[sandbox]\nmax_file_size = lots\n' > "$T/config/ptyvisor/config"
"$PTYVISOR" sandbox -- true 2> "$T/err"
is "$?" 125 "a bad max_file_size is refused"
grep -q 'config:2: max_file_size' "$T/err"
ok $? "the error names file:line and the key ($(cat "$T/err"))"
rm -f "$T/config/ptyvisor/config"

# --- memory ------------------------------------------------------------------
"$PTYVISOR" sandbox --explain > "$T/explain.txt" 2>&1
grep -q '^  memory  .* MiB for the whole sandbox' "$T/explain.txt"
ok $? "--explain states the default memory bound"
memcg=$(grep '^  memory cgroup' "$T/explain.txt")
diag "$memcg"
case "$memcg" in
*unavailable*)
	why=$(echo "$memcg" | sed 's/.*bounded (\(.*\)) \[.*/\1/')
	for t in "the memory bomb is killed" "its history says memory limit" \
		"settings max_session_memory"; do
		skip "$t: no memory cgroup here ($why)"
	done
	done_testing ;;
esac

is "$("$PROBE" membomb=256 | cut -d' ' -f2)" allowed \
	"unsandboxed: 256 MiB of memory"
is "$("$PTYVISOR" sandbox -- "$PROBE" membomb=256 | cut -d' ' -f2)" allowed \
	"sandboxed, default bound: 256 MiB of memory"
"$PTYVISOR" sandbox --max-session-memory 64M -- "$PROBE" membomb=256 \
	> "$T/mem.txt" 2> "$T/mem.err"
is "$?" 137 "--max-session-memory 64M: the memory bomb is killed (SIGKILL)"
! grep -q allowed "$T/mem.txt"
ok $? "the memory bomb did not get its 256 MiB"
grep -q 'killed: memory limit' "$T/mem.err"
ok $? "ptyvisor sandbox says why ($(cat "$T/mem.err"))"

"$PTYVISOR" run --max-session-memory 64M -- "$PROBE" membomb=256 \
	> /dev/null 2>&1 < /dev/null
is "$?" 137 "a session over its memory bound is killed"
"$PTYVISOR" history > "$T/hist.txt" 2>&1
grep -q 'memory limit' "$T/hist.txt"
ok $? "its history says memory limit"
tail -n 1 "$T/state/history.jsonl" | grep -q '"error": *"memory limit"'
ok $? "history.jsonl records the memory limit as the session's error"

printf '[sandbox]\nmax_session_memory = 64M\n' > "$T/config/ptyvisor/config"
"$PTYVISOR" sandbox -- "$PROBE" membomb=256 > /dev/null 2>&1
is "$?" 137 "settings max_session_memory = 64M: the memory bomb is killed"

done_testing
