#!/bin/sh
# The real Claude Code CLI (npm, the version tests/agents/package.json pins)
# configured exactly as `ptyvisor hook claude-code --print-settings` and
# `ptyvisor mcp --print-config claude` print it, against a stand-in of the
# Messages API (messages-api.py) playing a script of tool calls; what the
# model received is read from the stand-in's log.  Once without ptyvisor
# (the reference), once through the test's own `ptyvisor serve`:
# - a command's output, standard error and exit status, stdin at its end,
#   a 300 kB output and a `cd` carried to the next call reach the model as
#   without ptyvisor, each command in ptyvisor's history;
# - a rule's denial, a command approved and one denied with a reason
#   (`ptyvisor approve` / `deny` while Claude Code waits) reach it;
# - ptyvisor's MCP tool `run` returning while its command still runs, the
#   model following the call its structured result names to the end.
# Claude Code asks no second time: no --allowedTools in the second run.
# Without node, npm or the pinned CLI it skips.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"
. "$top_srcdir/tests/agents/agent-lib.sh"

T=$(mktemp -d)
[ -n "${PV_KEEP:-}" ] && echo "# T=$T"
[ -n "${PV_KEEP:-}" ] || cleanup_cmd "rm -rf '$T'"

agent_claude

pv_serve_setup
cat > "$T/config/rules" <<'EOF'
deny rm **
allow printf **
allow exit **
allow cat
allow echo **
allow head **
allow tr **
allow cd **
allow pwd
allow sleep **
EOF
pv_serve
ok $? "serve answers"
mkdir -p "$T/work/sub" "$T/plain/.claude" "$T/hooked/.claude"

# The script's steps: $1 the tool's name for a command.
bash_step() {
	python3 -c 'import json, sys
print(json.dumps({"tool": "Bash", "input": {"command": sys.argv[1],
    "description": sys.argv[2]}}))' "$1" "$2"
}
common="$(bash_step "printf 'out\\n'; printf 'err\\n' >&2; exit 3" "status"),
$(bash_step 'cat; echo eof-seen' 'stdin'),
$(bash_step "head -c 300000 /dev/zero | tr '\\0' a; echo" 'big'),
$(bash_step 'cd sub' 'cd'),
$(bash_step 'pwd' 'where')"
printf '[%s]\n' "$common" > "$T/plain.script"
# The last three: the model switching its supervision off, by its Write
# tool (the project's settings, from the subdirectory it cd'ed to) and by
# a command a person even approves (its user settings), then a command
# that must still go through ptyvisor.
off='{"disableAllHooks": true}'
printf '[%s, %s, %s, %s, %s, %s, %s, %s, %s]\n' "$common" \
    "$(bash_step 'rm -rf /nonexistent-pv-claude' 'remove')" \
    "$(bash_step 'touch approved-file' 'make one')" \
    "$(bash_step 'touch denied-file' 'make another')" \
    '{"tool": "mcp__ptyvisor__run", "input": {"command": "sleep 3; echo long-done", "wait_s": 1}}' \
    '{"tool": "mcp__ptyvisor__session_output", "input": "next_call"}' \
    "$(python3 -c 'import json, sys
print(json.dumps({"tool": "Write", "input": {"file_path": sys.argv[1],
    "content": sys.argv[2]}}))' "$T/work/.claude/settings.local.json" "$off")" \
    "$(bash_step "printf '%s\\n' '$off' > $T/hooked/.claude/settings.json" 'hooks off')" \
    "$(bash_step 'echo still-supervised' 'after')" \
    > "$T/hooked.script"

# What the plain run needs to run Bash at all; the hooked run has only
# what ptyvisor prints.
printf '{"permissions": {"allow": ["Bash"]}}\n' > "$T/plain/.claude/settings.json"
$PTYVISOR hook claude-code --print-settings \
    > "$T/hooked/.claude/settings.json" 2> /dev/null
$PTYVISOR mcp --print-config claude > "$T/work/.mcp.json" 2> /dev/null

# run NAME: Claude Code, its HOME $T/NAME, playing $T/NAME.script; the
# results the model was given, one JSON string a line, in $T/NAME.results.
run() {
	agent_standin messages-api.py "$1" "$T/$1.json" "$T/$1.script"
	agent_claude_run "$1" 120 "$claude" -p "do the steps" \
	    --output-format json
	python3 - "$T/$1.json" > "$T/$1.results" 2> /dev/null <<'PY'
import json, sys
for m in json.load(open(sys.argv[1]))["messages"]:
    for b in m["content"] if isinstance(m["content"], list) else []:
        if b.get("type") == "tool_result":
            c = b["content"]
            print(json.dumps(c if isinstance(c, str) else
                  "".join(x.get("text", "") for x in c)))
PY
}

# result NAME N: what the model was given for step N (1-based).
result() { sed -n "$2p" "$T/$1.results" | python3 -c 'import json, sys
print(json.loads(sys.stdin.read()), end="")'; }

report() {
	for f in out err log api.err results; do
		[ -s "$T/$1.$f" ] && sed "s/^/# $1.$f: /" "$T/$1.$f" | cut -c 1-300 |
		    head -40
	done
}

run plain
is "$(wc -l < "$T/plain.results")" 5 "without ptyvisor: the model got five results"
[ "$(wc -l < "$T/plain.results")" = 5 ] || report plain

# The person's answers while Claude Code waits: approve the one, deny the
# other with a reason; approve even the command writing Claude Code's
# settings (its sandbox keeps them read-only all the same).
answer() {
	for i in $(seq 1 600); do
		$PTYVISOR pending 2> /dev/null > "$T/pending"
		id=$(grep 'approved-file' "$T/pending" | cut -f 1)
		[ -n "$id" ] && $PTYVISOR approve "$id" > /dev/null
		id=$(grep 'denied-file' "$T/pending" | cut -f 1)
		[ -n "$id" ] && $PTYVISOR deny "$id" --reason "not today" \
		    > /dev/null
		id=$(grep 'disableAllHooks' "$T/pending" | cut -f 1)
		[ -n "$id" ] && $PTYVISOR approve "$id" > /dev/null && return 0
		sleep 0.2
	done
}
answer &
cleanup_pid $!
run hooked
is "$(wc -l < "$T/hooked.results")" 13 "with ptyvisor: the model got thirteen results"
[ "$(wc -l < "$T/hooked.results")" = 13 ] || report hooked
grep -q '"result":"All done."' "$T/hooked.out" && grep -q '^exit 0$' "$T/hooked.out"
ok $? "with ptyvisor: Claude Code played the script to its end" || report hooked

for n in 1:"output, standard error and exit status" 2:"stdin at its end" \
    5:"the directory after a cd in the call before"; do
	is "$(result hooked ${n%%:*})" "$(result plain ${n%%:*})" \
	    "the model gets ${n#*:} as without ptyvisor"
done
# A large output: Claude Code keeps it in a file of its own and gives the
# model its path and a preview; the two files hold the same bytes.
saved() { result "$1" 3 | sed -n 's/^Output too large.*saved to: //p'; }
is "$(result hooked 3 | sed 's/saved to: .*/saved to: FILE/')" \
    "$(result plain 3 | sed 's/saved to: .*/saved to: FILE/')" \
    "the model gets a 300 kB output as without ptyvisor (Claude Code's preview)"
[ -s "$(saved plain)" ] && cmp -s "$(saved plain)" "$(saved hooked)"
ok $? "... and the whole of it, kept by Claude Code, is the same ($(wc -c < "$(saved plain)") bytes)"
result plain 1 | grep -q 'out' && result plain 1 | grep -q 'err' &&
    result plain 1 | grep -q '3'
ok $? "... (the reference has them: $(result plain 1 | tr '\n' ' '))"
is "$(result hooked 5)" "$T/work/sub" "... there: $T/work/sub"

result hooked 6 | grep -q "denied by rule 'deny rm \*\*'"
ok $? "a rule's denial reaches the model, naming the rule" || report hooked
# (in sub: the model's cd still holds)
[ -e "$T/work/sub/approved-file" ] && ! [ -e "$T/work/sub/denied-file" ]
ok $? "the command the person approved ran, the one denied did not"
result hooked 8 | grep -q 'not today'
ok $? "the person's reason reaches the model: $(result hooked 8 | head -c 200)"

result hooked 9 > "$T/run.json"
python3 - "$T/run.json" <<'PY'
import json, sys
sc = json.load(open(sys.argv[1]))
sys.exit(0 if sc["running"] and sc["next_call"]["tool"] == "session_output"
         and "session_output" in sc["message"] else 1)
PY
ok $? "MCP run: what the model gets says it still runs and what to call" ||
    report hooked
result hooked 10 > "$T/output.json"
python3 - "$T/output.json" <<'PY'
import json, sys
sc = json.load(open(sys.argv[1]))
sys.exit(0 if not sc["running"] and sc["exit_code"] == 0 and
         "long-done" in sc["output"] else 1)
PY
ok $? "... and following it, the model gets its end and output" ||
    report hooked

result hooked 11 | grep -q "ptyvisor: $T/work/.claude/settings.local.json is protected" &&
    ! [ -e "$T/work/.claude/settings.local.json" ]
ok $? "Write of the project's settings (after a cd) refused: $(result hooked 11 | head -c 120)"
result hooked 12 | grep -q 'Read-only file system' &&
    ! grep -q disableAllHooks "$T/hooked/.claude/settings.json"
ok $? "a command writing its user settings, approved, fails: read-only in the sandbox" ||
    result hooked 12 | sed 's/^/# /'
is "$(result hooked 13)" still-supervised "the next command ran ..."
python3 - "$T/state/history.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if ["bash", "-c", "echo still-supervised"] in
         [r.get("argv") for r in rows] else 1)
PY
ok $? "... through ptyvisor still"
python3 - "$T/state/history.jsonl" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
argvs = [r.get("argv") for r in rows]
want = [["bash", "-c", "printf 'out\\n'; printf 'err\\n' >&2; exit 3"],
        ["bash", "-c", "cd sub"], ["bash", "-c", "touch approved-file"],
        ["sh", "-c", "sleep 3; echo long-done"]]
sys.exit(0 if all(w in argvs for w in want) else 1)
PY
ok $? "ptyvisor's history has the commands as Claude Code's model gave them"
done_testing
