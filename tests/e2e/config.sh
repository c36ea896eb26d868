#!/bin/sh
# The settings file end to end: run, sandbox, serve, exec and history read
# it; the command line beats the environment beats the file; a wrong line
# stops every command with 125 and names file:line.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_CONFIG="$T/config" PTYVISOR_STATE_DIR="$T/state"
# Defaults, should something fall back to them, stay inside $T too.
export HOME="$T/home"
unset PTYVISOR_SOCKET XDG_CONFIG_HOME XDG_STATE_HOME XDG_RUNTIME_DIR
mkdir -p "$T/config" "$T/work" "$T/home"
CONF="$T/config/config"
hist_field() {
	tail -n 1 "$1/history.jsonl" | python3 -c "import json,sys; print(json.load(sys.stdin)[sys.argv[1]])" "$2"
}

# --- no file: the defaults --------------------------------------------------
$PTYVISOR run --cwd "$T/work" -- touch "$T/work/default" </dev/null >/dev/null
is "$?" 0 "no settings file: run works"
test -e "$T/work/default"; ok $? "and the default profile lets the cwd be written"

# --- [sandbox] profile, and the command line over it ------------------------
printf '# settings\n[sandbox]\nprofile = read-only\n' > "$CONF"
$PTYVISOR run --cwd "$T/work" -- touch "$T/work/ro" </dev/null >/dev/null 2>&1
isnt=$?
[ "$isnt" -ne 0 ] && [ ! -e "$T/work/ro" ]
ok $? "profile = read-only: run cannot write the cwd"
is "$(hist_field "$T/state" profile)" read-only "history records read-only"
$PTYVISOR run --sandbox workspace-write --cwd "$T/work" -- touch "$T/work/rw" \
	</dev/null >/dev/null
is "$?" 0 "--sandbox workspace-write overrides the file"
test -e "$T/work/rw"; ok $? "and the file is written"

(cd "$T/work" && $PTYVISOR sandbox -- touch "$T/work/sb" 2>/dev/null)
[ $? -ne 0 ] && [ ! -e "$T/work/sb" ]
ok $? "ptyvisor sandbox takes the profile from the file too"
(cd "$T/work" && $PTYVISOR sandbox --sandbox workspace-write -- touch "$T/work/sb")
is "$?" 0 "and its --sandbox overrides it"

cat > "$CONF" <<EOF
[sandbox]
profile = workspace-write
network = on
writable = $T/extra
protect_git = yes
private_tmp = yes
max_procs = 77
max_files = 99
max_memory = 1G
EOF
mkdir -p "$T/extra"
$PTYVISOR sandbox --explain > "$T/explain" 2>&1
grep -q '^network: allowed' "$T/explain"; ok $? "explain: network = on"
grep -q "^  $T/extra\$" "$T/explain"; ok $? "explain: the file's writable root"
grep -q '^private /tmp and /dev/shm: yes' "$T/explain"; ok $? "explain: private_tmp"
grep -q "^  processes  *77 (\[sandbox\], $CONF:7)\$" "$T/explain"
ok $? "explain: max_procs, and where it came from"
grep -q "^  open files  *99 (\[sandbox\], $CONF:8)\$" "$T/explain"
ok $? "explain: max_files"
grep -q "^  address space  *1024 MiB (\[sandbox\], $CONF:9)\$" "$T/explain"
ok $? "explain: max_memory"
$PTYVISOR sandbox --no-network --shared-tmp --max-procs 5 --writable "$T/work" \
	--explain > "$T/explain" 2>&1
grep -q '^network: denied' "$T/explain"; ok $? "--no-network beats network = on"
grep -q '^private /tmp and /dev/shm: no' "$T/explain"; ok $? "--shared-tmp beats private_tmp"
grep -q '^  processes  *5 (command line)$' "$T/explain"
ok $? "--max-procs beats max_procs"
grep -q "^  $T/extra\$" "$T/explain" && grep -q "^  $T/work\$" "$T/explain"
ok $? "--writable adds to the file's roots"

# --- a wrong line: 125, file:line, nothing run ------------------------------
printf '[sandbox]\nprofile = read-only\nnetwork = maybe\n' > "$CONF"
$PTYVISOR run -- touch "$T/ran" </dev/null > "$T/o" 2> "$T/e"
is "$?" 125 "a bad value: run exits 125"
test ! -e "$T/ran"; ok $? "and runs nothing"
is "$(cat "$T/e")" "ptyvisor: config $CONF:3: network: 'maybe' is not yes or no (true/false, on/off, 1/0)" \
	"stderr names file:line and the key"
for c in "sandbox -- true" "serve --socket $T/no.sock" "exec -- true" \
    "pending" "history" "show 1" "replay 1"; do
	$PTYVISOR $c </dev/null >/dev/null 2> "$T/e"
	rc=$?
	[ "$rc" -eq 125 ] && grep -q "^ptyvisor: config $CONF:3: " "$T/e"
	ok $? "ptyvisor $c: 125 with file:line (got $rc)"
done
test ! -e "$T/no.sock"; ok $? "serve did not start"

printf '[sandbox]\nprofile = read-only\n[sandbx]\n' > "$CONF"
$PTYVISOR run -- true </dev/null >/dev/null 2> "$T/e"
is "$?" 125 "an unknown section: 125"
grep -q "config $CONF:3: unknown section \[sandbx\]" "$T/e"; ok $? "named with its line"

rm "$CONF"; mkdir "$CONF"
$PTYVISOR run -- true </dev/null >/dev/null 2> "$T/e"
is "$?" 125 "a directory where the file should be: 125"
grep -q "config $CONF: Is a directory" "$T/e"; ok $? "and says so"
rmdir "$CONF"

# $XDG_CONFIG_HOME/ptyvisor/config when $PTYVISOR_CONFIG is not set.
mkdir -p "$T/xdg/ptyvisor"
printf '[tui]\nscrollback = 0\n' > "$T/xdg/ptyvisor/config"
env -u PTYVISOR_CONFIG XDG_CONFIG_HOME="$T/xdg" $PTYVISOR run -- true \
	</dev/null >/dev/null 2> "$T/e"
is "$?" 125 "the file under \$XDG_CONFIG_HOME is read"
grep -q "config $T/xdg/ptyvisor/config:2: scrollback" "$T/e"; ok $? "and named"

# --- [paths] state_dir: below the environment ------------------------------
printf '[paths]\nstate_dir = %s\n' "$T/fromfile" > "$CONF"
env -u PTYVISOR_STATE_DIR $PTYVISOR run -- echo to-the-file </dev/null >/dev/null
is "$?" 0 "run with state_dir in the file"
test -s "$T/fromfile/sessions/1.cast"; ok $? "the recording lands in the file's state_dir"
is "$(hist_field "$T/fromfile" argv)" "['echo', 'to-the-file']" "so does its history"
env -u PTYVISOR_STATE_DIR $PTYVISOR history > "$T/h"
grep -q 'echo to-the-file' "$T/h"; ok $? "ptyvisor history reads the file's state_dir"
env -u PTYVISOR_STATE_DIR $PTYVISOR replay --text 1 > "$T/r"
grep -q 'to-the-file' "$T/r"; ok $? "ptyvisor replay ID finds the recording there"
$PTYVISOR run -- echo to-the-env </dev/null >/dev/null
grep -q to-the-env "$T/state/history.jsonl"; ok $? "\$PTYVISOR_STATE_DIR beats the file"
grep -q to-the-env "$T/fromfile/history.jsonl"
is "$?" 1 "and nothing goes to the file's state_dir then"

# --- serve: [approval] mode, [paths] socket, [sandbox] profile --------------
# The notify program the file names must exist (a missing one stops serve).
printf '#!/bin/sh\nexit 0\n' > "$T/notify"; chmod 755 "$T/notify"
cat > "$CONF" <<EOF
[approval]
mode = never
notify = $T/notify
[sandbox]
profile = read-only
[paths]
socket = $T/run/file.sock
EOF
$PTYVISOR serve 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "grep -q listening '$T/serve.log'" 10
ok $? "serve starts"
grep -q "listening on $T/run/file.sock (approval never, .* settings $CONF)" \
	"$T/serve.log"
ok $? "serve listens on the file's socket, in the file's mode"
timeout 30 $PTYVISOR exec --cwd "$T/work" -- touch "$T/work/agent" \
	</dev/null >/dev/null 2>&1
is "$?" 1 "exec finds the socket in the file, mode never allows, touch fails"
test ! -e "$T/work/agent"; ok $? "profile = read-only is the agent's default sandbox"
is "$(hist_field "$T/state" profile)" read-only "the agent session ran read-only"
kill $SERVE
wait $SERVE
is "$?" 0 "serve stops on SIGTERM"

PTYVISOR_SOCKET="$T/run/env.sock" $PTYVISOR serve 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "grep -q listening '$T/serve.log'" 10
grep -q "listening on $T/run/env.sock " "$T/serve.log"
ok $? "\$PTYVISOR_SOCKET beats the file's socket"
kill $SERVE
wait $SERVE

$PTYVISOR serve --approval on-request --socket "$T/run/flag.sock" \
	2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "grep -q listening '$T/serve.log'" 10
grep -q "listening on $T/run/flag.sock (approval on-request," "$T/serve.log"
ok $? "--approval and --socket beat the file"
kill $SERVE
wait $SERVE

printf '[approval]\nmode = on-request\n' > "$CONF"
$PTYVISOR serve --socket "$T/run/mode.sock" 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "grep -q listening '$T/serve.log'" 10
grep -q "(approval on-request," "$T/serve.log"
ok $? "mode = on-request in the file: serve's log says on-request"
kill $SERVE
wait $SERVE

done_testing
