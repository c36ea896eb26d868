#!/bin/sh
# ptyvisor run: exit statuses, lossless recording, history, bad input.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state"
cast() { python3 "$top_srcdir/tests/e2e/castdata.py" "$@"; }
last_cast() { ls "$PTYVISOR_STATE_DIR"/sessions/*.cast | sort -t/ -k1 -V | tail -n 1; }
last_hist() { tail -n 1 "$PTYVISOR_STATE_DIR/history.jsonl"; }
hist_field() { last_hist | python3 -c "import json,sys; v=json.load(sys.stdin)[sys.argv[1]]; print('null' if v is None else v)" "$1"; }

# --- lossless output -------------------------------------------------------
$PTYVISOR run -- seq 1 200000 > "$T/out" </dev/null
is "$?" 0 "seq 1 200000 exits 0"
seq 1 200000 | sed 's/$/\r/' > "$T/want"
cmp -s "$T/out" "$T/want"; ok $? "stdout has exactly the PTY's bytes (CRLF line ends)"
cast "$(last_cast)" > "$T/rec"
cmp -s "$T/rec" "$T/want"; ok $? "recording's output events decode to exactly the same bytes"
is "$(hist_field code)" 0 "history says code 0"
is "$(hist_field bytes)" "$(wc -c < "$T/want" | tr -d ' ')" "history has the right byte count"
is "$(hist_field state)" exited "history state is exited"
is "$(cast --marker "$(last_cast)")" "exit 0" "recording ends with the exit marker"

# --- exit statuses ---------------------------------------------------------
$PTYVISOR run -- sh -c 'exit 3' >/dev/null </dev/null
is "$?" 3 "exit 3 is passed through"
is "$(hist_field code)" 3 "history says code 3"

$PTYVISOR run -- sh -c 'kill -9 $$' >/dev/null </dev/null
is "$?" 137 "death by SIGKILL exits 137"
is "$(hist_field signal)" 9 "history says signal 9"
is "$(hist_field state)" signaled "history state is signaled"
is "$(cast --marker "$(last_cast)")" "signal 9" "recording's marker says signal 9"

# Unsandboxed, so that the group's pids are the host's.
$PTYVISOR run --sandbox none --timeout 1 -- sh -c 'echo $$ > "$0"; sleep 30' \
	"$T/pgid" >/dev/null </dev/null
is "$?" 124 "--timeout 1 on sleep 30 exits 124"
is "$(hist_field state)" timed_out "history state is timed_out"
pgid=$(cat "$T/pgid")
# Zombies waiting for init to reap them are dead already: look for live ones.
ps -o stat= -g "$pgid" | grep -qv '^Z'
is "$?" 1 "the timed-out process group is gone"

$PTYVISOR run -- no-such-cmd > "$T/nf.out" 2> "$T/nf.err" </dev/null
is "$?" 127 "a missing command exits 127"
grep -q 'no-such-cmd: command not found' "$T/nf.err"
ok $? "stderr names the missing command"
cast "$(last_cast)" | grep -q 'no-such-cmd: command not found'
ok $? "the recording holds the message"
is "$(hist_field state)" failed_to_start "history state is failed_to_start"

: > "$T/noexec"; chmod 644 "$T/noexec"
$PTYVISOR run --cwd "$T" -- "$T/noexec" >/dev/null 2>&1 </dev/null
is "$?" 126 "a non-executable file exits 126"

# A directory of $PATH this user may not search is skipped, as bash and dash
# skip it: a name in no other directory is not found (127, where execvp
# says EACCES), one found further on runs, a file that may not run is 126.
mkdir -p "$T/other" "$T/path/closed" "$T/path/empty" "$T/path/open"
: > "$T/path/open/plain"; chmod 644 "$T/path/open/plain"
chmod 0 "$T/path/closed"
as_other=""
if [ "$(id -u)" -eq 0 ]; then
	# Root searches every directory: these run as nobody.
	as_other="setpriv --reuid=nobody --regid=nogroup --clear-groups"
	chmod 755 "$T" "$T/path" "$T/path/empty" "$T/path/open"
	chown nobody "$T/other"
fi
path_run() {
	PATH="$T/path/closed:$T/path/empty:$T/path/open:$PATH" \
	    HOME="$T/other" PTYVISOR_STATE_DIR="$T/other/state" $as_other \
	    $PTYVISOR run --sandbox none -- "$@" >/dev/null 2>"$T/path.err" \
	    </dev/null
}
if [ "$(id -u)" -eq 0 ] && ! command -v setpriv >/dev/null; then
	skip "root searches every directory, and no setpriv to be nobody"
else
	path_run no-such-cmd
	is "$?" 127 "a \$PATH directory we may not search is skipped: 127"
	grep -q 'no-such-cmd: command not found' "$T/path.err"
	ok $? "and the command is not found"
	path_run true
	is "$?" 0 "a name found further on in \$PATH runs"
	path_run plain
	is "$?" 126 "a file in \$PATH that may not run exits 126"
fi
chmod 700 "$T/path/closed"

# --- sandboxed by default ---------------------------------------------------
$PTYVISOR run --timeout 1 -- sleep 30 >/dev/null </dev/null
is "$?" 124 "a sandboxed command times out with 124"
is "$(hist_field profile)" workspace-write "history records the default profile"
$PTYVISOR run -- sh -c 'touch /etc/ptyvisor-probe 2>/dev/null; echo rc=$?' \
	> "$T/sb.out" </dev/null
grep -q 'rc=1' "$T/sb.out"; ok $? "the default sandbox keeps /etc read-only"
test ! -e /etc/ptyvisor-probe; ok $? "nothing was written to /etc"
$PTYVISOR run --cwd "$T" -- sh -c 'echo inside > ws-file' >/dev/null </dev/null
is "$(cat "$T/ws-file" 2>/dev/null)" inside "the working directory is writable"
$PTYVISOR run --sandbox none -- true >/dev/null </dev/null
is "$(hist_field profile)" danger-full-access "--sandbox none is recorded as danger-full-access"
$PTYVISOR run --writable "$T/missing-root" -- true > "$T/wr.out" 2> "$T/wr.err" </dev/null
is "$?" 125 "a sandbox that cannot be set up exits 125"
grep -q 'sandbox: writable root: .*missing-root: No such file' "$T/wr.err"
ok $? "the failed stage and reason are shown"
is "$(hist_field state)" failed_to_start "history records failed_to_start"

# --- UTF-8 split across reads ----------------------------------------------
$PTYVISOR run -- sh -c 'for b in 360 237 230 200; do printf "\\$b"; sleep 0.05; done' \
	> /dev/null </dev/null
rec=$(cast "$(last_cast)")
is "$rec" "$(printf '\360\237\230\200')" "an emoji written a byte at a time is one intact character"
cast "$(last_cast)" | grep -q "$(printf '\357\277\275')"
is "$?" 1 "no replacement character in the recording"

# --- invalid bytes ---------------------------------------------------------
$PTYVISOR run -- printf 'a\377b' > /dev/null </dev/null
is "$(cast "$(last_cast)")" "$(printf 'a\357\277\275b')" "an invalid byte becomes U+FFFD"

# --- the recording plays in asciinema ------------------------------------
$PTYVISOR run -- printf 'hello\033[1mbold\033[0m\nline2\n' > /dev/null </dev/null
f=$(last_cast)
if command -v asciinema >/dev/null && command -v script >/dev/null; then
	script -qec "asciinema cat '$f'" /dev/null < /dev/null > "$T/acat" 2>&1
	tr -d '\r' < "$T/acat" > "$T/acat2"
	printf 'hello\033[1mbold\033[0m\nline2\n' > "$T/want2"
	cmp -s "$T/acat2" "$T/want2"; ok $? "asciinema cat prints the same text"
else
	skip "asciinema or script not installed"
fi

# --- files -----------------------------------------------------------------
is "$(stat -c %a "$PTYVISOR_STATE_DIR")" 700 "state dir is 0700"
is "$(stat -c %a "$f")" 600 "recording is 0600"
is "$(stat -c %a "$PTYVISOR_STATE_DIR/history.jsonl")" 600 "history is 0600"
$PTYVISOR run -v -- true 2> "$T/v.err" </dev/null
grep -q "recording: $PTYVISOR_STATE_DIR/sessions/.*\.cast" "$T/v.err"
ok $? "-v says where the recording went"

# --- help and version ------------------------------------------------------
$PTYVISOR --version | grep -q '^ptyvisor [0-9]'; ok $? "--version"
$PTYVISOR --help | grep -q 'run'; ok $? "--help lists run"
$PTYVISOR help run | grep -q 'usage: ptyvisor run'; ok $? "help run"
$PTYVISOR run --help | grep -q -- '--timeout'; ok $? "run --help lists --timeout"

# --- bad input: one line on stderr, exit 125, nothing written ---------------
n_before=$(ls "$PTYVISOR_STATE_DIR/sessions" | wc -l)
h_before=$(wc -l < "$PTYVISOR_STATE_DIR/history.jsonl")
bad() {
	want_re=$1; shift
	"$@" > "$T/bad.out" 2> "$T/bad.err" </dev/null
	rc=$?
	is "$rc" 125 "exit 125: $*"
	is "$(wc -l < "$T/bad.err" | tr -d ' ')" 1 "one line on stderr: $*"
	grep -q -- "$want_re" "$T/bad.err"; ok $? "message names the problem: $want_re"
}
bad "put -- before" $PTYVISOR run true
bad "no command given" $PTYVISOR run
bad "no command given" $PTYVISOR run --
bad "unknown option '--bogus'" $PTYVISOR run --bogus -- true
bad "unknown profile 'bogus'" $PTYVISOR run --sandbox bogus -- true
bad "cwd $T/nope: No such file" $PTYVISOR run --cwd "$T/nope" -- true
bad "--timeout: 'x'" $PTYVISOR run --timeout x -- true
bad "unknown command 'frobnicate'" $PTYVISOR frobnicate
: > "$T/afile"
PTYVISOR_STATE_DIR="$T/afile/state" bad "Not a directory" $PTYVISOR run -- true
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	mkdir -p "$T/ro"; chmod 555 "$T/ro"; chmod 755 "$T"
	PTYVISOR_STATE_DIR="$T/ro/state" bad "Permission denied" \
		setpriv --reuid=nobody --regid=nogroup --clear-groups $PTYVISOR run -- true
else
	mkdir -p "$T/ro"; chmod 555 "$T/ro"
	PTYVISOR_STATE_DIR="$T/ro/state" bad "Permission denied" $PTYVISOR run -- true
fi
is "$(ls "$PTYVISOR_STATE_DIR/sessions" | wc -l)" "$n_before" "no recording left by bad input"
is "$(wc -l < "$PTYVISOR_STATE_DIR/history.jsonl")" "$h_before" "no history line added by bad input"

# A session knows it runs under ptyvisor; exec from inside says why the
# server is out of reach.
out=$($PTYVISOR run -- sh -c 'echo "in=$PTYVISOR_SESSION"' < /dev/null | tr -d '\r')
n=$(tail -1 "$T/state/history.jsonl" | sed -n 's/.*"id":\([0-9]*\).*/\1/p')
is "$out" "in=$n" "PTYVISOR_SESSION holds the session's id"
$PTYVISOR run -- "$PTYVISOR" exec -- true < /dev/null > "$T/inside" 2>&1
grep -q "runs inside ptyvisor session .*cannot reach the control socket: by design" "$T/inside"
ok $? "exec inside a session explains that the socket is out of reach"

done_testing
