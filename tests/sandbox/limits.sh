#!/bin/sh
# limits.sh - the bounds every sandbox gets by default: the size of a file
# the command writes (RLIMIT_FSIZE) and the memory of the whole sandbox (a
# memory cgroup, not RLIMIT_AS); each from its option and from the settings
# file; the file size per profile (read-only's own default, the sections
# [sandbox.read-only] and [sandbox.workspace-write], for run, sandbox and an
# agent's request); a session killed for its memory says "memory limit" in
# the history.
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
# A copy of the probe outside /tmp, for commands under --private-tmp: the
# build may be under /tmp, which the private one hides.
cp "$PROBE" "$T/probe" || exit 1
TPROBE="$T/probe"
# Our own settings file only, so the defaults are the program's.
export XDG_CONFIG_HOME="$T/config"
export PTYVISOR_STATE_DIR="$T/state"
diag "running as $(id -un)"

CONF="$T/config/ptyvisor/config"

# The caller's small stack limit is no bound of ours: the init's stack,
# kept in the relay's own where there is room, is mapped apart under
# `ulimit -s 256` (which crashed the relay before).  Standard output only:
# a sanitizer build says on stderr that it sees a stack it does not know.
out=$(ulimit -s 256 && "$PTYVISOR" sandbox -- echo stack-ok 2> "$T/stack.err")
is "$?:$out" "0:stack-ok" "ulimit -s 256: the command runs"

verdict() { awk -v s="$2" '$1 == s { print $2 " " $3; exit }' "$1"; }

# A settings file with a bad line: 125, the error naming file:line and key.
refused() {	# $1: the file's text; $2: the error after "config FILE:"
	printf "$1" > "$CONF"
	"$PTYVISOR" sandbox -- true 2> "$T/err"
	is "$?" 125 "a bad line is refused (line $2)"
	grep -q "config $CONF:$2" "$T/err"
	ok $? "the error names file:line and the key ($(cat "$T/err"))"
}

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
refused '[sandbox]\nmax_file_size = lots\n' "2: max_file_size"
rm -f "$T/config/ptyvisor/config"

# --- file size per profile ----------------------------------------------------
# read-only writes only to a private /tmp (and to what its caller hands it),
# so it has a default of its own, 1 GiB; [sandbox.PROFILE] sets one profile's
# bound, over [sandbox] and under the command line.
ro() {	# the probe under read-only, in its private /tmp
	"$PTYVISOR" sandbox --sandbox read-only --private-tmp "$@"
}
ro -- sh -c "cd /tmp && exec '$TPROBE' fsize=2048 fsize=100" > "$T/ro.txt" 2>&1
is "$(verdict "$T/ro.txt" fsize=2048)" "denied EFBIG" \
	"read-only: not past its own default file size (1 GiB)"
is "$(verdict "$T/ro.txt" fsize=100)" "allowed " "read-only: 100 MiB is fine"
"$PTYVISOR" sandbox -- "$PROBE" fsize=2048 > "$T/ww.txt" 2>&1
is "$(verdict "$T/ww.txt" fsize=2048)" "allowed " \
	"workspace-write: 2 GiB is under its default (16 GiB)"
"$PTYVISOR" sandbox --sandbox read-only --explain > "$T/explain.txt" 2>&1
grep -q "^  file size  *1024 MiB per file (read-only's default)\$" \
	"$T/explain.txt"
ok $? "--explain: read-only's own default, said so"

printf '[sandbox]\nmax_file_size = 3M\n\n[sandbox.read-only]\n# scratch only\nmax_file_size = 1M\n' \
	> "$CONF"
ro -- sh -c "cd /tmp && exec '$TPROBE' fsize=2" > "$T/ro.txt" 2>&1
is "$(verdict "$T/ro.txt" fsize=2)" "denied EFBIG" \
	"[sandbox.read-only] max_file_size = 1M: not 2 MiB under read-only"
ro -- sh -c 'head -c 2M /dev/zero > /tmp/big' 2> /dev/null
is "$?" 153 "a writer that does not ignore it dies of SIGXFSZ (128+25)"
"$PTYVISOR" sandbox -- "$PROBE" fsize=2 fsize=4 > "$T/ww.txt" 2>&1
is "$(verdict "$T/ww.txt" fsize=2)" "allowed " \
	"workspace-write: read-only's section does not bind it"
is "$(verdict "$T/ww.txt" fsize=4)" "denied EFBIG" \
	"workspace-write: [sandbox] max_file_size = 3M binds it"
ro --explain > "$T/explain.txt" 2>&1
grep -q "^  file size  *1 MiB per file (\[sandbox.read-only\], $CONF:6)\$" \
	"$T/explain.txt"
ok $? "--explain: the bound in force and its file:line"
ro --max-file-size 10M -- sh -c "cd /tmp && exec '$TPROBE' fsize=2" \
	> "$T/ro.txt" 2>&1
is "$(verdict "$T/ro.txt" fsize=2)" "allowed " \
	"--max-file-size 10M beats [sandbox.read-only]"
printf '[sandbox]\nprofile = read-only\nprivate_tmp = yes\n[sandbox.read-only]\nmax_file_size = 1M\n' \
	> "$CONF"
"$PTYVISOR" run -- sh -c "cd /tmp && exec '$TPROBE' fsize=2" \
	> "$T/run.txt" 2>&1 < /dev/null
grep -q '^fsize=2 denied EFBIG' "$T/run.txt"
ok $? "run under the settings' profile = read-only: its section's bound"
printf '[sandbox]\nmax_file_size = 3M\n[sandbox.workspace-write]\nmax_file_size = 5M\n' \
	> "$CONF"
"$PTYVISOR" sandbox -- "$PROBE" fsize=4 fsize=6 > "$T/ww.txt" 2>&1
is "$(verdict "$T/ww.txt" fsize=4)" "allowed " \
	"[sandbox.workspace-write] max_file_size = 5M beats [sandbox]'s 3M"
is "$(verdict "$T/ww.txt" fsize=6)" "denied EFBIG" "and binds at 5 MiB"
printf '[sandbox]\nmax_file_size = 4G\n' > "$CONF"
ro -- sh -c "cd /tmp && exec '$TPROBE' fsize=2048" > "$T/ro.txt" 2>&1
is "$(verdict "$T/ro.txt" fsize=2048)" "allowed " \
	"[sandbox] max_file_size = 4G beats read-only's own default"
refused '[sandbox]\n[sandbox.read-only]\nmax_file_size = huge\n' \
	"3: max_file_size: bad size 'huge'"

# An agent's request names its profile: the server's settings bind it by
# that profile's section.
export PTYVISOR_CONFIG="$T/config/ptyvisor" PTYVISOR_SOCKET="$T/pv.sock"
printf 'allow sh -c **\n' > "$T/config/ptyvisor/rules"
printf '[sandbox]\nprivate_tmp = yes\n[sandbox.read-only]\nmax_file_size = 1M\n' \
	> "$CONF"
"$PTYVISOR" serve --approval on-request 2> "$T/serve.log" < /dev/null &
SERVE=$!
cleanup_pid $SERVE
wait_for "'$PTYVISOR' pending > /dev/null 2>&1" 20
ok $? "a server with [sandbox.read-only] listens"
agent() {	# $1: profile; the probe in /tmp under it, through the server
	timeout 30 "$PTYVISOR" exec --sandbox "$1" -- \
		sh -c "cd /tmp && exec '$TPROBE' fsize=2" < /dev/null 2>&1 |
		tr -d '\r'
}
is "$(agent read-only)" "fsize=2 denied EFBIG" \
	"an agent's read-only request: its profile's bound (1M)"
is "$(agent workspace-write)" "fsize=2 allowed" \
	"an agent's workspace-write request: not read-only's"
kill $SERVE
wait $SERVE 2> /dev/null
unset PTYVISOR_CONFIG PTYVISOR_SOCKET
rm -f "$CONF"

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
