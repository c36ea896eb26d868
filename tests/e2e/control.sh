#!/bin/sh
# ptyvisor serve + exec/ptyvisor-sh + pending/approve/deny, end to end.
. "$top_srcdir/tests/tap.sh"

# The pending lines below are compared whole: no secret-looking variable
# of the caller's may add its "env dropped" field (secret-env.sh tests it).
for v in $(env | sed -n 's/^\([A-Za-z_][A-Za-z0-9_]*\)=.*/\1/p' |
    grep -iE 'key|secret|token|passw|credential'); do
	unset "$v"
done

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
mkdir -p "$T/config"
cat > "$T/config/rules" <<'RULES'
allow echo **
allow printf **
allow sh -c 'exit 3'
allow sh -c 'kill -9 $$'
allow sh -c 'echo out; echo err >&2'
allow sleep **
allow no-such-command-xyz
allow touch **
allow printenv **
allow sh -c 'readlink /proc/self/fd/0; cat'
deny  rm **
RULES

# No server yet: 125 and a message.
timeout 30 $PTYVISOR exec -- echo hi > "$T/o" 2> "$T/e" < /dev/null
is "$?" 125 "no server: exit 125"
grep -q "no ptyvisor server" "$T/e"; ok $? "no server: says so on stderr"

# Files and programs named at start must be there: a clear error, 125.
for bad in "--rules $T/no-such-rules" "--notify $T/no-such-notify" \
    "--notify no-such-notify-program-xyz" "--notify $T"; do
	timeout 10 $PTYVISOR serve $bad > /dev/null 2> "$T/bad.err" < /dev/null
	rc=$?
	[ "$rc" -eq 125 ] && grep -q "${bad#--* }" "$T/bad.err" &&
	    [ ! -S "$PTYVISOR_SOCKET" ]
	ok $? "serve $bad: exit 125 naming it, nothing served ($rc: $(head -c 120 "$T/bad.err"))"
done
timeout 10 $PTYVISOR --rules "$T/no-such-rules" > /dev/null 2> "$T/bad.err" \
    < /dev/null
is "$?" 125 "the console refuses a missing rules file too, before its screen"
grep -q "rules file $T/no-such-rules" "$T/bad.err"; ok $? "... naming it"
printf '[approval]\nrules = %s\n' "$T/no-such-rules" > "$T/config/config"
timeout 10 $PTYVISOR serve > /dev/null 2> "$T/bad.err" < /dev/null
is "$?" 125 "a rules file named in the settings file must exist too"
grep -q "rules file $T/no-such-rules: No such file" "$T/bad.err"
ok $? "... and the error says which and why"
rm -f "$T/config/config"

TMUX_PANE=%99 PV_SERVER_VAR=here TERM=vt100 $PTYVISOR serve --approval on-request \
    2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10; ok $? "serve listens on \$PTYVISOR_SOCKET"
is "$(stat -c %a "$T/run")" 700 "socket directory is 0700"
is "$(stat -c %a "$PTYVISOR_SOCKET")" 600 "socket is 0600"

$PTYVISOR serve 2> "$T/e2"
is "$?" 125 "a second server refuses to start"
grep -q "already serving" "$T/e2"; ok $? "and says another one is serving"

# Agents' commands run on ptyvisor's emulator: TERM says so, whatever the
# server's own; what describes another terminal is not passed on.
out=$(timeout 30 $PTYVISOR exec -- printenv TERM < /dev/null | tr -d '\r')
is "$out" "xterm-256color" "an agent's command sees TERM=xterm-256color"
out=$(timeout 30 $PTYVISOR exec -- printenv TMUX_PANE < /dev/null | tr -d '\r')
is "$out" "" "and no TMUX_PANE of the server's terminal"

# --socket names the server's socket on the command line.
out=$(env -u PTYVISOR_SOCKET timeout 30 $PTYVISOR exec --socket "$PTYVISOR_SOCKET" \
    -- echo by-flag < /dev/null)
is "$out" "by-flag" "exec --socket reaches the server without \$PTYVISOR_SOCKET"
env -u PTYVISOR_SOCKET $PTYVISOR pending --socket "$PTYVISOR_SOCKET" > /dev/null
is "$?" 0 "pending --socket too"
env -u PTYVISOR_SOCKET $PTYVISOR deny 999 --socket "$PTYVISOR_SOCKET" 2> /dev/null
is "$?" 1 "deny --socket reaches it (no request 999: exit 1, not 125)"
env -u PTYVISOR_SOCKET $PTYVISOR approve --socket "$T/elsewhere.sock" 999 2> /dev/null
is "$?" 125 "approve --socket to no server: 125"

# Allowed by rule.
out=$(timeout 30 $PTYVISOR exec -- echo hello world < /dev/null)
is "$?" 0 "allowed: exit 0"
is "$out" "hello world" "allowed: output through the shim"

# A stdin on /dev/null is the command's own; any other is a pipe, relayed.
out=$(timeout 30 $PTYVISOR exec -- sh -c 'readlink /proc/self/fd/0; cat' \
    < /dev/null)
is "$out" "/dev/null" "stdin /dev/null: the command's stdin is /dev/null"
out=$(echo piped | timeout 30 $PTYVISOR exec -- \
    sh -c 'readlink /proc/self/fd/0; cat' | sed 's/:.*//')
is "$out" "pipe
piped" "stdin a pipe: the command's is a pipe, with what was sent"

# Denied by rule.
timeout 30 $PTYVISOR exec -- rm -rf x > "$T/o" 2> "$T/e" < /dev/null
is "$?" 126 "denied by rule: exit 126"
grep -q "denied by rule .deny  *rm" "$T/e"; ok $? "denied: the rule is on stderr"

# The request goes with the hello: what the server answered before the
# client read its hello (its first read held back here) is not waited for.
if strace -f -qq -o /dev/null true 2> /dev/null; then
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
	    timeout 30 strace -f -qq -o /dev/null -e trace=recvfrom \
	    -e inject=recvfrom:delay_enter=300000:when=1 \
	    $PTYVISOR exec -- rm -rf x > /dev/null 2>&1 < /dev/null
	is "$?" 126 "denied, the answer read with the hello: exit 126"
else
	skip "strace cannot trace here"
fi

# Status pass-through.
timeout 30 $PTYVISOR exec -- sh -c 'exit 3' > /dev/null < /dev/null
is "$?" 3 "exit 3 passes through"
timeout 30 $PTYVISOR exec -- sh -c 'kill -9 $$' > /dev/null < /dev/null
is "$?" 137 "SIGKILL gives 137"
timeout 30 $PTYVISOR exec --timeout 1 -- sleep 30 > /dev/null < /dev/null
is "$?" 124 "timeout gives 124"
timeout 30 $PTYVISOR exec -- no-such-command-xyz > "$T/o" 2>&1 < /dev/null
is "$?" 127 "a missing command gives 127"
grep -q "command not found" "$T/o"; ok $? "and says command not found"

# --text: what a terminal shows.
# Agent sessions run in the sandbox they ask for (default workspace-write).
timeout 30 $PTYVISOR exec -- touch /etc/ptyvisor-agent-probe > /dev/null 2>&1 < /dev/null
isnt_zero=$?
[ "$isnt_zero" -ne 0 ] && [ ! -e /etc/ptyvisor-agent-probe ]
ok $? "an agent's command cannot write /etc (sandboxed)"
tail -n 1 "$T/state/history.jsonl" | grep -q '"profile":"workspace-write"'
ok $? "history records the agent session's profile"
timeout 30 $PTYVISOR exec --cwd "$T" -- touch "$T/agent-wrote" > /dev/null 2>&1 < /dev/null
test -e "$T/agent-wrote"; ok $? "the agent's cwd is writable"

out=$(timeout 30 $PTYVISOR exec --text -- printf '\033[31mred\033[0m\n' < /dev/null)
is "$out" "red" "--text of a coloured word is the word"
# A line the terminal wraps comes out as the one line the program wrote,
# blanks at the rows' ends included (a space every 7 characters).
long=$(python3 -c "print(('abcdef ' * 430)[:3000])")
timeout 30 $PTYVISOR exec --text -- printf '%s\n' "$long" > "$T/long" < /dev/null
printf '%s\n' "$long" > "$T/long.want"
cmp -s "$T/long" "$T/long.want"
ok $? "--text of a 3000-character line is that line, whole"
# Lines are handed on as they scroll off the top: all of them, in order, a
# wrapped one among them whole (its rows' blanks kept), then what the
# screen shows at the end (the same line again, and five more).
timeout 60 $PTYVISOR exec --text -- printf '%s\n' "$long" $(seq 1 20000) \
    "$long" 5 6 7 8 9 > "$T/many" 2> "$T/many.err" < /dev/null
{ printf '%s\n' "$long"; seq 1 20000; printf '%s\n' "$long" 5 6 7 8 9; } \
    > "$T/many.want"
cmp -s "$T/many" "$T/many.want"
r=$?; [ $r -ne 0 ] && { wc -l "$T/many"; head -c 300 "$T/many.err"; } | sed "s/^/# /"
ok $r "--text of a wrapped line, 20,000 lines, it again and five more: every line, in order"

# A client that reads slowly is waited for: with 3 MB of output and a
# client that reads nothing for 3 s (more than the server may queue for
# it), the command is held back, then every byte arrives; the client is
# not dropped.
python3 - "$PTYVISOR_SOCKET" > "$T/slow" <<'PY'
import base64, json, socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
f = s.makefile("rwb")
f.readline()
f.write(b'{"op":"hello","version":1}\n')
f.write(json.dumps({"op": "exec", "id": "big", "encoding": "base64",
                    "argv": ["printf", "%3000000s\n", ""]}).encode() + b"\n")
f.flush()
time.sleep(3)
got, code = 0, None
for line in f:
    ev = json.loads(line)
    if ev.get("event") == "output":
        got += len(base64.b64decode(ev["b64"]))
    elif ev.get("event") == "exit":
        code = ev.get("code")
        break
print(got, code)
PY
is "$(cat "$T/slow")" "3000002 0" "a client that reads late gets every byte and the status"
! grep -q "is not reading" "$T/serve.log"; ok $? "and is not disconnected"
# A subscriber that falls behind a flood (it reads nothing for 3 s while
# a session prints 8 MB to its reading owner) is not dropped: the
# session's output is left out for it, and it is told so (skipped, with
# how much) before that session's exit; the owner still gets every byte.
python3 "$top_srcdir/tests/e2e/load-client.py" behind "$PTYVISOR_SOCKET" \
    > "$T/behind" 2>&1
grep -q "^owner 8000002 0$" "$T/behind"
ok $? "a subscriber falls behind a flood: its owner still gets all 8 MB and the status" || sed 's/^/# /' "$T/behind"
grep -q "^skipped True$" "$T/behind" && grep -q "^closed False$" "$T/behind"
ok $? "the subscriber stays, told what it missed (skipped: the session, the bytes)" || sed 's/^/# /' "$T/behind"
grep -Eq "^order (skipped )+exit$" "$T/behind"; ok $? "... before the session's exit"
! grep -q "is not reading" "$T/serve.log"; ok $? "and is not disconnected"
# A session's screen drawn for a subscriber that comes late (screen), its
# output after the drawing continuing it, a new size told (resized).
python3 - "$PTYVISOR_SOCKET" > "$T/screen" 2>&1 <<'PY'
import json, socket, sys, time
def conn():
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    f = s.makefile("rwb")
    f.readline()
    send(f, {"op": "hello", "version": 1})
    return f
def send(f, o):
    f.write(json.dumps(o).encode() + b"\n")
    f.flush()
def until(f, pred):
    while True:
        ev = json.loads(f.readline())
        if pred(ev):
            return ev
agent = conn()
send(agent, {"op": "exec", "id": "x", "cols": 40, "rows": 10, "argv": [
    "sh", "-c", "printf 'first-line\\n\\033[1mbold-mark\\033[0m'; read x; "
    "printf 'typed:%s' \"$x\"; sleep 5"]})
req = until(agent, lambda e: e.get("event") == "queued")["request"]
send(agent, {"op": "decide", "id": "d", "request": req,
             "decision": "approve"})
sess = until(agent, lambda e: e.get("event") == "started")["session"]
until(agent, lambda e: e.get("event") == "output" and
      "bold-mark" in e["data"])
watch = conn()
send(watch, {"op": "subscribe", "id": "s"})
send(watch, {"op": "screen", "id": "v", "session": sess})
scr = until(watch, lambda e: e.get("id") == "v")
print("size", scr["cols"], scr["rows"], scr.get("partial", False))
print("drawn", "first-line" in scr["data"],
      "\033[0;1mbold-mark" in scr["data"], "\033[2J" in scr["data"])
send(agent, {"op": "resize", "id": "r", "session": sess, "cols": 50,
             "rows": 12})
ev = until(watch, lambda e: e.get("event") == "resized")
print("resized", ev["session"] == sess, ev["cols"], ev["rows"])
send(agent, {"op": "input", "id": "i", "session": sess, "data": "abc\n"})
ev = until(watch, lambda e: e.get("event") == "output" and
           "typed:abc" in e["data"])
print("after", ev["session"] == sess)
send(watch, {"op": "screen", "id": "n", "session": 99999})
print("none", until(watch, lambda e: e.get("id") == "n")["code"])
PY
sed -n 1p "$T/screen" | grep -qx 'size 40 10 False'
ok $? "screen: the session's own size, whole ($(sed -n 1p "$T/screen"))"
sed -n 2p "$T/screen" | grep -qx 'drawn True True True'
ok $? "screen: its text and attributes drawn on a cleared screen"
sed -n 3p "$T/screen" | grep -qx 'resized True 50 12'
ok $? "resized: a subscriber is told the new size"
sed -n 4p "$T/screen" | grep -qx 'after True'
ok $? "the output after the drawing reaches the subscriber"
sed -n 5p "$T/screen" | grep -qx 'none no-such-session'
ok $? "screen of no session: no-such-session"
[ "$(wc -l < "$T/screen")" -eq 5 ] || diag "$(head -c 1000 "$T/screen")"
timeout 30 $PTYVISOR exec --raw -- printf '\033[31mred\033[0m\n' > "$T/raw" < /dev/null
printf '\033[31mred\033[0m\n' > "$T/raw.want"
cmp -s "$T/raw" "$T/raw.want"; ok $? "--raw gives the exact bytes (stdout a pipe: no \\r added)"
out=$(timeout 30 $PTYVISOR exec --text -- printf 'a\rb\n' < /dev/null)
is "$out" "b" "--text applies carriage returns"
timeout 30 $PTYVISOR exec -- printf 'a\rb\n' > "$T/o" < /dev/null
printf 'a\rb\n' | cmp -s - "$T/o"; ok $? "without --text the bytes are exact"
timeout 30 $PTYVISOR exec -- sh -c 'echo out; echo err >&2' > "$T/o" 2> "$T/e" < /dev/null
is "$(cat "$T/o"):$(cat "$T/e")" "out:err" "stdout and stderr arrive apart"
seq 1 3000 > "$T/seq.want"

# Asked: pending lists it, approve runs it.
pending_id() { $PTYVISOR pending | awk -F '\t' -v c="$1" '$2 == c { print $1; exit }'; }
timeout 30 $PTYVISOR exec --why "count" -- seq 1 3000 > "$T/seq" 2> "$T/e" < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '[ -n "$(pending_id "seq 1 3000")" ]' 10; ok $? "asked: ptyvisor pending lists it"
id=$(pending_id "seq 1 3000")
$PTYVISOR pending | grep -q "^$id	seq 1 3000	.*	count$"; ok $? "pending line: id, command, cwd, why"
$PTYVISOR pending --json | grep -q "\"request\":$id"; ok $? "pending --json has the request"
$PTYVISOR approve "$id"
is "$?" 0 "approve exits 0"
wait $SHIM
is "$?" 0 "the approved command runs; the shim exits 0"
cmp -s "$T/seq" "$T/seq.want"; ok $? "all 3000 lines arrive in order (scrolled-off ones too)"
$PTYVISOR approve "$id" 2> "$T/e"
is "$?" 1 "approving it again: exit 1"

# Asked, denied with a reason.
timeout 30 $PTYVISOR exec -- seq 1 2 > "$T/o" 2> "$T/e" < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '[ -n "$(pending_id "seq 1 2")" ]' 10
$PTYVISOR deny "$(pending_id "seq 1 2")" --reason "use the cached results"
wait $SHIM
is "$?" 126 "denied by a person: 126"
grep -q "use the cached results" "$T/e"; ok $? "the reason is on stderr"
tail -n 1 "$T/state/history.jsonl" > "$T/denied.json"
python3 -c 'import json, sys
e = json.load(open(sys.argv[1]))
assert e["id"] == 0 and e["request"] > 0, e
assert e["state"] == "denied" and e["by"] == "user", e
assert e["error"] == "use the cached results" and e["argv"] == ["seq", "1", "2"], e
assert e["agent"] is True and e.get("recording") is None, e' "$T/denied.json"
ok $? "the history lists the denied request: id 0, its request number, by whom, why"
$PTYVISOR history | tail -n 1 > "$T/denied.txt"
grep -q '^    -  .*  denied  .*seq 1 2$' "$T/denied.txt"
ok $? "ptyvisor history shows it with no session id: $(cat "$T/denied.txt")"

# A request whose agent goes away unanswered is in the history as such.
# (-k: a shim stuck at exit, as LeakSanitizer once was, is not left behind.)
timeout -k 5 30 $PTYVISOR exec -- seq 1 7 > /dev/null 2>&1 < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '[ -n "$(pending_id "seq 1 7")" ]' 10
kill -TERM $SHIM; wait $SHIM
wait_for "tail -n 1 '$T/state/history.jsonl' | grep -q '\"state\":\"withdrawn\"'" 10
ok $? "a request withdrawn unanswered gets a history line"
$PTYVISOR history --state withdrawn | grep -q 'never answered .*seq 1 7$'
ok $? "named: never answered"

# Invisible characters (a right-to-left override in the command and the
# reason) are escaped in what a person reads, and the request says so.
rlo=$(printf '\342\200\256')
timeout 30 $PTYVISOR exec --why "fix${rlo}gpj.exe" -- seq "1${rlo}0" \
    > /dev/null 2>&1 < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '$PTYVISOR pending | grep -q "seq"' 10
$PTYVISOR pending > "$T/pending-rlo"
grep -qF "seq \$'1\\u202e0'	" "$T/pending-rlo"
ok $? "pending shows U+202E in the command as \\u202e"
grep -qF "fix\\u202egpj.exe" "$T/pending-rlo"; ok $? "and in the reason"
grep -q "WARNING: invisible characters" "$T/pending-rlo"; ok $? "and warns"
! grep -qF "$rlo" "$T/pending-rlo"; ok $? "the raw character never reaches the terminal"
$PTYVISOR deny "$($PTYVISOR pending | awk -F '\t' '/seq/ { print $1; exit }')"
wait $SHIM

# Environment variables: an allowed command that sets any is asked; once
# approved they reach it through the sandbox's scrubbed environment.
timeout 30 $PTYVISOR exec -e PV_FOO=bar -- printenv PV_FOO > "$T/o" 2> "$T/e" \
    < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '[ -n "$(pending_id "printenv PV_FOO")" ]' 10
ok $? "a rule-allowed command that sets the environment is asked"
$PTYVISOR approve "$(pending_id "printenv PV_FOO")"
wait $SHIM
is "$?" 0 "approved: it runs"
is "$(cat "$T/o")" "bar" "the variable reaches the command"

# With full access the whole environment passes the sandbox, so only the
# session's own scrubbing keeps a TMUX_PANE out.  The environment is the
# agent's (exec sends it), none of the server's.
TMUX_PANE=%98 PV_CALLER_VAR=there timeout 30 $PTYVISOR exec \
    --sandbox danger-full-access -- \
    printenv TMUX_PANE PV_CALLER_VAR PV_SERVER_VAR > "$T/o" 2> "$T/e" < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '[ -n "$(pending_id "printenv TMUX_PANE PV_CALLER_VAR PV_SERVER_VAR")" ]' 10
ok $? "full access is asked"
$PTYVISOR approve "$(pending_id "printenv TMUX_PANE PV_CALLER_VAR PV_SERVER_VAR")"
wait $SHIM
is "$(tr -d '\r' < "$T/o")" "there" \
    "with full access the agent's variables pass, its TMUX_PANE and the server's do not"

# Approve with --remember: the next identical request runs at once.
ptyvisor_sh="$T/ptyvisor-sh"
ln -s "$PTYVISOR" "$ptyvisor_sh"
timeout 30 "$ptyvisor_sh" -c 'echo remembered; exit 5' > "$T/o" 2>&1 < /dev/null &
SHIM=$!
cleanup_pid $SHIM
cmd="sh -c 'echo remembered; exit 5'"
wait_for '[ -n "$(pending_id "$cmd")" ]' 10; ok $? "ptyvisor-sh -c: asked"
$PTYVISOR approve --remember "$(pending_id "$cmd")"
wait $SHIM
is "$?" 5 "ptyvisor-sh -c: the status passes through"
is "$(cat "$T/o")" "remembered" "ptyvisor-sh -c: the output"
timeout 30 "$ptyvisor_sh" -c 'echo remembered; exit 5' > "$T/o" 2>&1 < /dev/null
is "$?" 5 "remembered: the same request runs without asking"
is "$($PTYVISOR pending)" "" "nothing is pending"

# A signal to the shim kills its session.  (-k: a shim that hangs is
# killed, 137, and the check below fails rather than the suite hanging.
# 137 was also the command killed only at the end of the grace, its SIGHUP
# and SIGTERM lost on the way through the sandbox's init.)  The session's
# process, serve's child, is the sandbox's relay.
timeout -k 10 30 $PTYVISOR exec -- sleep 30 > /dev/null 2>&1 < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for "pgrep -P $SERVE" 10
spid=$(pgrep -P $SERVE | head -n 1)
t0=$(date +%s)
kill -TERM $SHIM
wait $SHIM
rc=$?
# The session is ended with SIGHUP then SIGTERM, and the shim ends as its
# command did: 129 or 143.  137 would be the -k above: a hang.
[ "$rc" -eq 129 ] || [ "$rc" -eq 143 ]
good=$?
ok $good "SIGTERM to the shim: it exits with its command's signal status ($rc)"
if [ $good -ne 0 ]; then
	# Which 137: the session's SIGKILL after its grace (the history
	# says so, in about 2 s) or the shim itself stuck (10 s, -k).
	diag "the shim took $(( $(date +%s) - t0 )) s"
	diag "its session in the history: $(grep '"sleep"' "$PTYVISOR_STATE_DIR/history.jsonl" | tail -n 1 | cut -c 1-400)"
fi
wait_for "! kill -0 $spid 2>/dev/null || grep -q '^State:.*Z' /proc/$spid/status" 10
ok $? "and its session is gone"

# The rules file is followed: an edit takes effect without a restart; a
# broken file keeps the old rules, with file:line in the log; SIGHUP
# reloads too (and does not stop serve).
cp "$T/config/rules" "$T/rules.orig"
printf 'deny echo forbidden-word\n' >> "$T/config/rules"
wait_for "grep -q 'rules reloaded from $T/config/rules: 12 rules' '$T/serve.log'" 10
ok $? "an edit to the rules file is reloaded: $(grep 'rules reloaded' "$T/serve.log" | tail -1)"
timeout 30 $PTYVISOR exec -- echo forbidden-word > /dev/null 2>&1 < /dev/null
is "$?" 126 "the new rule denies at once"
printf "allow 'unterminated\n" >> "$T/config/rules"
wait_for "grep -q 'rules not reloaded, the old ones stay: $T/config/rules:13' '$T/serve.log'" 10
ok $? "a broken file is refused, with file:line in the log"
timeout 30 $PTYVISOR exec -- echo forbidden-word > /dev/null 2>&1 < /dev/null
is "$?" 126 "and the old rules stay in force"
timeout 30 $PTYVISOR exec -- echo still-allowed > /dev/null 2>&1 < /dev/null
is "$?" 0 "all of them"
n=$(grep -c 'rules reloaded' "$T/serve.log")
cp "$T/rules.orig" "$T/config/rules.tmp"
mv "$T/config/rules.tmp" "$T/config/rules"	# as editors save: a rename
wait_for "[ \$(grep -c 'rules reloaded' '$T/serve.log') -gt $n ]" 10
ok $? "a file replaced by a rename is reloaded too"
timeout 30 $PTYVISOR exec -- echo forbidden-word > /dev/null 2>&1 < /dev/null
is "$?" 0 "the removed rule no longer denies"
n=$(grep -c 'rules reloaded' "$T/serve.log")
kill -HUP $SERVE
wait_for "[ \$(grep -c 'rules reloaded' '$T/serve.log') -gt $n ]" 10
ok $? "SIGHUP reloads the rules"
kill -0 $SERVE; ok $? "and serve keeps running"

# Every session's relay, which tells the command's end before its own
# exit, is reaped: after all these commands, no child of the server is
# left, not even a zombie.
wait_for "[ -z \"\$(ps -o pid= --ppid $SERVE)\" ]" 10
ok $? "no child of the server is left once its sessions ended ($(ps -o pid=,stat=,comm= --ppid $SERVE | tr '\n' ' '))"

# The settings file is followed too: what the command line set stays, a
# broken file changes nothing, a missing notify program is refused.
printf '[approval]\nmode = never\n' > "$T/config/config"
wait_for "grep -q 'settings reloaded from $T/config/config: approval on-request (from the command line)' '$T/serve.log'" 10
ok $? "a settings change is read; --approval on the command line still wins"
printf '[approval]\nmode = sometimes\n' > "$T/config/config"
wait_for "grep -q 'settings not reloaded, nothing changed: config $T/config/config:2' '$T/serve.log'" 10
ok $? "a broken settings file changes nothing, and the log names file:line"
printf '[approval]\nnotify = %s\n' "$T/no-such-notify" > "$T/config/config"
wait_for "grep -q 'notify program $T/no-such-notify: No such file or directory, the old one stays' '$T/serve.log'" 10
ok $? "a notify program that is not there is refused"
rm -f "$T/config/config"
wait_for "grep -c 'settings reloaded' '$T/serve.log' | grep -q '^[3-9]'" 10
ok $? "a removed settings file is no settings"

# Clean shutdown.
kill -TERM $SERVE
wait $SERVE
is "$?" 0 "serve exits 0 on SIGTERM"
[ ! -e "$PTYVISOR_SOCKET" ]; ok $? "and removes its socket"
grep -q "request .* approved by user" "$T/serve.log"; ok $? "decisions are logged"

# A stale socket is replaced; an unsafe directory is refused.
python3 -c "import socket,sys; s=socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])" "$PTYVISOR_SOCKET"
[ -S "$PTYVISOR_SOCKET" ]; ok $? "a stale socket is left behind"
$PTYVISOR serve 2> "$T/serve2.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "$PTYVISOR pending" 10; ok $? "serve starts over a stale socket"
kill -TERM $SERVE; wait $SERVE

mkdir -p "$T/open"; chmod 777 "$T/open"
PTYVISOR_SOCKET="$T/open/s" $PTYVISOR serve 2> "$T/e"
is "$?" 125 "a world-writable socket directory is refused"
grep -q "writable by others" "$T/e"; ok $? "with a message saying why"

done_testing
