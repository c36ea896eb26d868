#!/bin/sh
# The real Codex CLI (npm, the version tests/agents/package-lock.json pins)
# under ptyvisor, talking to a stand-in of the Responses API
# (responses-api.py) that plays a scripted model.  Everything the model
# gets back is read from the stand-in's log, never assumed:
# - without ptyvisor, Codex's shell tool (exec_command) runs a command
#   writing to stdout and stderr and exiting 3, cat at end of input and a
#   300 kB output: the reference;
# - with `ptyvisor hook codex --print-settings` and `ptyvisor mcp
#   --print-config codex` in config.toml unedited, the same calls give the
#   model the same text, run as ptyvisor's sessions (its history); a rule's
#   denial, a person's approval and a person's denial with a reason reach
#   the model; apply_patch onto a guarded file is refused;
# - through the MCP server alone (Codex's own sandbox left on), run gives
#   the output and exit status, stdin then end of file, a capped 300 kB
#   output, a command outliving wait_s followed with session_output, and
#   the same denials and approval.
# The test's own settings point Codex at the stand-in and turn off what it
# would fetch elsewhere (its plugin sync from GitHub and chatgpt.com, its
# analytics and metrics).  Without node, npm or the pinned Codex it skips.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"
. "$top_srcdir/tests/agents/agent-lib.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
here="$top_srcdir/tests/agents"

# Codex, installed by scripts/bootstrap (npm ci in tests/agents), at the
# version package.json pins: the npm package's launcher, or the platform
# package's native binary where npm ran no install scripts.
want=$(agent_pin @openai/codex)
candidates() {
	printf '%s\n' "$here/node_modules/.bin/codex" \
	    "$here"/node_modules/@openai/codex-linux-*/vendor/*/bin/codex
}
agent_find "Codex $want" "codex-cli $want" candidates
codex=$agent
is "$(cat "$T/version")" "codex-cli $want" "Codex $want, as pinned"

pv_serve_setup
cat >> "$T/config/rules" <<'RULES'
allow bash -c **
deny rm **
ask touch **
RULES
pv_serve
ok $? "serve answers"
mkdir -p "$T/work" "$T/tmp"
: > "$T/work/victim"

# The three codex homes: the bare one, the hooked one (both recipes in
# config.toml, as printed), the one with the MCP server alone.
for h in plain hooked mcp; do
	mkdir -p "$T/$h/.codex"
	: > "$T/$h/.codex/config.toml"
done
HOME="$T/hooked" $PTYVISOR hook codex --print-settings > "$T/hook.toml"
ok $? "hook codex --print-settings"
HOME="$T/hooked" $PTYVISOR mcp --print-config codex > "$T/mcp.toml"
ok $? "mcp --print-config codex"
# The hook's part first: a top-level key it may carry must come before any
# table.
cat "$T/hook.toml" "$T/mcp.toml" > "$T/hooked/.codex/config.toml"
cp "$T/mcp.toml" "$T/mcp/.codex/config.toml"

# standin NAME: the stand-in playing $T/NAME.script, its port in
# $T/NAME.port, every request Codex sent it in $T/NAME.log.
standin() {
	agent_standin responses-api.py "$1" "$T/$1.script"
}

# run NAME [-c KEY=VALUE...]: codex exec with HOME $T/NAME against NAME's
# stand-in.  The test's own settings (the model, nothing reaching out) go
# on the command line, so config.toml holds only what ptyvisor printed.
run() {
	n=$1
	shift
	(cd "$T/work" && timeout 60 env -i PATH="$PATH" HOME="$T/$n" \
	    TMPDIR="$T/tmp" PTYVISOR_SOCKET="$PTYVISOR_SOCKET" \
	    PTYVISOR_CONFIG="$PTYVISOR_CONFIG" \
	    PTYVISOR_STATE_DIR="$PTYVISOR_STATE_DIR" \
	    STANDIN_KEY=sk-standin-fake \
	    "$codex" exec --skip-git-repo-check --color never \
	    -c 'model="gpt-5.5"' -c 'model_provider="standin"' \
	    -c 'model_providers.standin.name="standin"' \
	    -c "model_providers.standin.base_url=\"http://127.0.0.1:$(cat "$T/$n.port")/v1\"" \
	    -c 'model_providers.standin.wire_api="responses"' \
	    -c 'model_providers.standin.env_key="STANDIN_KEY"' \
	    -c 'features.plugins=false' -c 'analytics.enabled=false' \
	    -c 'feedback.enabled=false' -c 'otel.exporter="none"' \
	    -c 'otel.metrics_exporter="none"' -c 'otel.trace_exporter="none"' \
	    -c 'check_for_update_on_startup=false' -c 'web_search="disabled"' \
	    "$@" "do it" < /dev/null > "$T/$n.out" 2> "$T/$n.err")
	echo "exit $?" >> "$T/$n.out"
	# Each call's output as the model got it, in $T/NAME.got/N.
	python3 - "$T/$n.log" "$T/$n.got" <<'PY'
import json, os, sys
got = {}
for line in open(sys.argv[1]):
    req = json.loads(line)["body"] or {}
    for item in req.get("input") or []:
        if item.get("type", "").endswith("_output"):
            out = item.get("output", item.get("tools"))
            if isinstance(out, list) and all("text" in p for p in out):
                out = "\n".join(p["text"] for p in out)
            got[item["call_id"].rsplit("_", 1)[1]] = out
os.makedirs(sys.argv[2], exist_ok=True)
for k, v in got.items():
    with open(os.path.join(sys.argv[2], k), "w") as f:
        f.write(v if isinstance(v, str) else json.dumps(v))
PY
}

# got NAME N: what the model got from call N (exec_command's lines "Chunk
# ID" and "Wall time" left out: they differ from run to run).
got() {
	grep -v '^Chunk ID: \|^Wall time: ' "$T/$1.got/$2" 2> /dev/null
}

# sc NAME N EXPR: a python expression on d, the structuredContent of MCP
# call N (Codex gives the model that JSON after "Output:"); text(d) is its
# output without carriage returns, a closing "[exit 3]" line or the last
# newline.
sc() {
	python3 -c 'import json, re, sys
t = open(sys.argv[1]).read()
d = json.loads(t[t.index("Output:\n") + 8:])
def text(d):
    return re.sub(r"\n?\[[^\n]*\]$", "", d["output"].replace("\r", "")
                  .rstrip("\n")).rstrip("\n")
print(eval(sys.argv[2]))' "$T/$1.got/$2" "$3" 2> /dev/null
}

# in_history ARGV-JSON [ID]: a session of ptyvisor (session ID) ran
# exactly that argv.
in_history() {
	python3 - "$T/state/history.jsonl" "$1" "${2:-}" <<'PY'
import json, sys
want = json.loads(sys.argv[2])
try:
    rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
except FileNotFoundError:
    rows = []
sys.exit(0 if any(r.get("argv") == want and
                  sys.argv[3] in ("", str(r.get("id"))) for r in rows) else 1)
PY
}

# report NAME: what went wrong, as TAP comments.
report() {
	for f in out err api.err; do
		[ -s "$T/$1.$f" ] && grep -v 'WARNING: proceeding' "$T/$1.$f" |
		    sed "s/^/# $1.$f: /" | head -30
	done
	for f in "$T/$1.got"/*; do
		[ -s "$f" ] && head -c 600 "$f" | sed "s/^/# $1 call ${f##*/}: /"
	done
}

# ended NAME WHAT: codex exec NAME ended well, or what went wrong.
ended() {
	grep -q '^exit 0$' "$T/$1.out"
	r=$?
	[ $r -eq 0 ] || report "$1"
	ok $r "$2: codex exec ran the script to its end"
}

# decide PID VERB ARGS: wait (while codex PID runs) for a request
# pending, then VERB it (approve ID / deny ID --reason TEXT).
decide() {
	wait_for "[ -n \"\$($PTYVISOR pending)\" ] || ! kill -0 $1" 40
	id=$($PTYVISOR pending | head -n 1 | cut -f 1)
	[ -n "$id" ] && $PTYVISOR "$2" "$id" ${3:+"$3"} ${4:+"$4"}
}

CMD="printf 'out\\n'; printf 'err\\n' >&2; exit 3"
ARGV=$(CMD=$CMD python3 -c 'import json, os
print(json.dumps(["sh", "-c", os.environ["CMD"]]))')
# What the hook rewrites Codex's shell call to run: bash -c, as Codex's.
BARGV=$(CMD=$CMD python3 -c 'import json, os
print(json.dumps(["bash", "-c", os.environ["CMD"]]))')
BIG='i=0; while [ $i -lt 4100 ]; do printf "line %05d abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\n" $i; i=$((i+1)); done; echo END'
# script NAME JSON-TURNS: the stand-in's script, a python list (CMD, BIG,
# T, HOME are at hand).
script() {
	CMD=$CMD BIG=$BIG T=$T H="$T/$1" python3 -c 'import json, os
CMD, BIG, T, HOME = (os.environ[k] for k in ("CMD", "BIG", "T", "H"))
print(json.dumps('"$2"'))' > "$T/$1.script"
}

# --- Without ptyvisor: Codex's own shell tool, the reference.
script plain '[
 {"call": "exec_command", "arguments": {"cmd": CMD}},
 {"call": "exec_command", "arguments": {"cmd": "cat; echo rc=$?"}},
 {"call": "exec_command", "arguments": {"cmd": BIG}},
 {"text": "finished"}]'
standin plain
# Without Codex's own sandbox, as in the hooked run below.
run plain -c 'sandbox_mode="danger-full-access"'
ended plain "without ptyvisor"
python3 - "$T/plain.log" <<'PY'
import json, sys
req = json.loads(open(sys.argv[1]).readline())["body"]
names = [t.get("name") for t in req["tools"]]
sys.exit(0 if "exec_command" in names and "apply_patch" in names else 1)
PY
ok $? "Codex offers the model its shell tool exec_command (and apply_patch)"
# Codex gives a command two pipes, stdout and stderr, read apart: the
# order of their lines is not kept (nor by ptyvisor exec, doc/protocol.md
# 5a), so the lines of this one are compared sorted.
is "$(got plain 0 | sort)" "$(printf 'Original token count: 2\nOutput:\nProcess exited with code 3\nerr\nout' | sort)" \
    "without ptyvisor: the model gets out, err and exit code 3"
is "$(got plain 1)" "$(printf 'Process exited with code 0\nOriginal token count: 2\nOutput:\nrc=0')" \
    "without ptyvisor: cat meets end of input at once"
got plain 2 | grep -q '^Warning: truncated output' &&
    got plain 2 | grep -q '^line 00000 ' && got plain 2 | grep -qx 'END'
ok $? "without ptyvisor: 300 kB come back truncated, head and tail kept"
in_history "$ARGV"
is "$?" 1 "without ptyvisor: nothing in ptyvisor's history"

# --- With the hook: the same calls through ptyvisor exec, and denials.
script hooked '[
 {"call": "exec_command", "arguments": {"cmd": CMD}},
 {"call": "exec_command", "arguments": {"cmd": "cat; echo rc=$?"}},
 {"call": "exec_command", "arguments": {"cmd": BIG}},
 {"call": "exec_command", "arguments": {"cmd": "rm -f " + T + "/work/victim"}},
 {"call": "exec_command", "arguments": {"cmd": "touch " + T + "/work/hook-no"}},
 {"custom": "apply_patch", "input": "*** Begin Patch\n*** Add File: " + HOME + "/.bashrc\n+echo owned\n*** End Patch\n"},
 {"text": "finished"}]'
standin hooked
# Codex's own sandbox denies connect(), so the rewritten command could not
# reach ptyvisor: the printed settings turn it off (sandbox_mode), and
# ptyvisor's sandbox replaces it.
run hooked &
codex_run=$!
decide $codex_run deny --reason "not that file, says the test"
wait $codex_run
ended hooked "with the hook"
is "$(got hooked 0 | sort)" "$(got plain 0 | sort)" \
    "with the hook: the model gets what it got without (out, err, code 3)"
in_history "$BARGV"
r=$?
[ $r -eq 0 ] || grep '^hook: ' "$T/hooked.err" | sort | uniq -c |
    sed 's/^/# codex said: /'
ok $r "with the hook: the command ran as ptyvisor's session (its history)"
is "$(got hooked 1)" "$(got plain 1)" "with the hook: cat meets end of input too"
is "$(got hooked 2)" "$(got plain 2)" "with the hook: 300 kB, the same text"
got hooked 3 | grep -q "^Process exited with code 126" &&
    got hooked 3 | grep -q "denied by rule 'deny rm" && [ -e "$T/work/victim" ]
ok $? "with the hook: a rule's denial reaches the model (126, the rule)"
got hooked 4 | grep -q "not that file, says the test" &&
    [ ! -e "$T/work/hook-no" ]
ok $? "with the hook: a person's denial and reason reach the model"
got hooked 5 | grep -q "blocked by PreToolUse hook: ptyvisor: $T/hooked/.bashrc" &&
    [ ! -e "$T/hooked/.bashrc" ]
ok $? "with the hook: apply_patch onto ~/.bashrc is refused, saying why"
[ -e "$T/hooked/.bashrc" ] && diag "the hook did not run: Codex skips a" \
    "hook without [hooks.state] trusted_hash, silently"

# --- The MCP server alone, Codex's own sandbox on (read-only).
script mcp '[
 {"search": "ptyvisor run a shell command"},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": CMD}},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": "cat; echo done", "stdin": "hello\n"}},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": BIG}},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": "sleep 3; echo late", "wait_s": 1}},
 {"call": "session_output", "namespace": "mcp__ptyvisor", "arguments": {"session": "{prev:\"session\": *(\\d+)}", "wait_ms": 30000}},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": "rm -f " + T + "/work/victim"}},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": "touch " + T + "/work/mcp-yes"}},
 {"call": "run", "namespace": "mcp__ptyvisor", "arguments": {"command": "touch " + T + "/work/mcp-no"}},
 {"text": "finished"}]'
standin mcp
run mcp &
codex_run=$!
decide $codex_run approve
decide $codex_run deny --reason "no second file, says the test"
wait $codex_run
ended mcp "mcp"
grep -q '"name": *"run"' "$T/mcp.got/0"
ok $? "mcp: tool_search finds ptyvisor's run (namespace mcp__ptyvisor)"
[ "$(sc mcp 1 'd["exit_code"]')" = 3 ] ||
    { cat "$T/mcp.got/1"; echo; } 2> /dev/null | sed 's/^/# the model got: /'
is "$(sc mcp 1 'd["exit_code"]')" 3 "mcp: run gives the exit status"
is "$(sc mcp 1 'text(d)')" "$(printf 'out\nerr')" \
    "mcp: run gives the model the output (structuredContent output)"
in_history "$ARGV" "$(sc mcp 1 'd["session"]')"
ok $? "mcp: the command ran as ptyvisor's session (its history)"
is "$(sc mcp 2 'text(d)')" "$(printf 'hello\ndone')" \
    "mcp: stdin, then end of file"
is "$(sc mcp 3 'd["truncated"], "line 00000" in d["output"], "END" in d["output"]')" \
    "(True, True, True)" "mcp: 300 kB capped, head and tail kept"
is "$(sc mcp 4 'd["running"], d["exit_code"]')" "(True, None)" \
    "mcp: past wait_s the command is still running"
is "$(sc mcp 5 'd["running"], d["exit_code"], "late" in d["output"]')" \
    "(False, 0, True)" "mcp: session_output follows it to its end"
is "$(sc mcp 6 'd["denied"], "deny rm" in d["reason"]')" "(True, True)" \
    "mcp: a rule's denial and the rule reach the model"
[ -e "$T/work/victim" ]; ok $? "mcp: ... and nothing was removed"
is "$(sc mcp 7 'd["exit_code"]')" 0 "mcp: a command the person approved ran"
[ -e "$T/work/mcp-yes" ]; ok $? "mcp: ... and did its work"
is "$(sc mcp 8 'd["denied"], d["reason"]')" \
    "(True, 'no second file, says the test')" \
    "mcp: the person's denial and reason reach the model"
[ ! -e "$T/work/mcp-no" ]; ok $? "mcp: ... and it did not run"

done_testing
