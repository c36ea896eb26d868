#!/bin/sh
# Agents plugged in: `ptyvisor hook claude-code` with real hook JSON (the
# rewritten command run as Claude Code runs it: its output, status and
# history entry), with no server (--when-absent), --print-settings; each
# agent's file tools (Claude Code, Codex, Gemini CLI) denied a guarded
# path (directly, through a symlink, through '..') with the reason, an
# ordinary file and other tools left alone; and
# every recipe (`mcp --print-config`, doc/agents.md's snippets) parsed by
# its format's own rules (python3's json and tomllib).
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
mkdir -p "$T/config" "$T/work"
printf 'deny rm **\n' > "$T/config/rules"
self=$(readlink -f "$PTYVISOR")

# A field of the JSON on stdin: jget 'python expression on d'.
jget() { python3 -c 'import json,sys; d=json.load(sys.stdin); print('"$1"')'; }

# The hook's input as Claude Code sends it, for command $1.
hook_json() {
	python3 -c 'import json,sys; print(json.dumps({"session_id": "s1",
	    "transcript_path": "/tmp/t.jsonl", "cwd": sys.argv[2],
	    "permission_mode": "default", "hook_event_name": "PreToolUse",
	    "tool_name": "Bash", "tool_input": {"command": sys.argv[1],
	    "description": "Shout a greeting", "timeout": 120000}}))' \
	    "$1" "$T/work"
}

# No server: deny by default, saying how to start one; ask; allow.
hook_json 'echo hi' | $PTYVISOR hook claude-code > "$T/h0" 2> "$T/h0.err"
is "$?" 0 "no server: the hook answers (exit 0)"
is "$(jget 'd["hookSpecificOutput"]["permissionDecision"]' < "$T/h0")" deny \
    "no server: deny by default"
jget 'd["hookSpecificOutput"]["permissionDecisionReason"]' < "$T/h0" |
    grep -q "ptyvisor serve"
ok $? "... with a reason saying how to start ptyvisor"
jget 'd["hookSpecificOutput"]["permissionDecisionReason"]' < "$T/h0" |
    grep -q "each agent's settings and hooks, git hooks and config and shell start-up files are read-only, and credentials are hidden"
ok $? "... and what every sandbox keeps read-only or hidden"
for a in ask allow; do
	hook_json 'echo hi' | $PTYVISOR hook claude-code --when-absent $a > "$T/h1"
	is "$(jget 'd["hookSpecificOutput"]["permissionDecision"]' < "$T/h1")" \
	    $a "no server, --when-absent $a"
done
$PTYVISOR hook claude-code --when-absent maybe < /dev/null 2> /dev/null
is "$?" 125 "--when-absent takes only ask, deny or allow"

$PTYVISOR serve --approval never 2> "$T/serve.log" &
cleanup_pid $!
wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10; ok $? "serve listens"

# Not the Bash tool: no decision at all.
printf '%s' '{"hook_event_name":"PreToolUse","tool_name":"Read","tool_input":{"file_path":"/etc/passwd"}}' |
    $PTYVISOR hook claude-code > "$T/h2"
ok $(( $? + $(wc -c < "$T/h2") )) "another tool: exit 0, no output"

# A command with every quoting trap: quotes, $, backslashes, a newline.
cmd='printf "%s|%s\n" "it'"'"'s" '"'"'$HOME \\ "q"'"'"'; echo `echo two` $((6*7))
echo line2 >&2; exit 4'
hook_json "$cmd" | $PTYVISOR hook claude-code > "$T/h3"
is "$?" 0 "Bash: the hook answers"
is "$(jget 'd["hookSpecificOutput"]["permissionDecision"]' < "$T/h3")" allow \
    "Bash: allow (Claude Code does not ask again)"
is "$(jget 'd["hookSpecificOutput"]["hookEventName"]' < "$T/h3")" PreToolUse \
    "hookEventName PreToolUse"
new=$(jget 'd["hookSpecificOutput"]["updatedInput"]["command"]' < "$T/h3")
case $new in
*"&& { '$self' exec "*"-- bash -c "*|*"&& { $self exec "*"-- bash -c "*)
	ok 0 "the command runs through $self exec, in bash" ;;
*) ok 1 "the command runs through $self exec, in bash: $new" ;;
esac
is "$(jget 'd["hookSpecificOutput"]["updatedInput"]["timeout"]' < "$T/h3")" \
    120000 "the rest of the input is kept"
# Run it as Claude Code does (bash -c, stdout and stderr captured).
(cd "$T/work" && bash -c "$new" > "$T/out" 2>&1 < /dev/null)
is "$?" 4 "the rewritten command: the original's exit status"
(cd "$T/work" && bash -c "$cmd" > "$T/want" 2>&1 < /dev/null)
is "$(cat "$T/out")" "$(cat "$T/want")" "the rewritten command: the original's output"
$PTYVISOR history --json > "$T/hist"
python3 - "$T/hist" "$cmd" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if any(r.get("argv") == ["bash", "-c", sys.argv[2]] and
                  r.get("code") == 4 for r in rows) else 1)
PY
ok $? "the history has it, with the original command and its status"

# What Claude Code's shell keeps between calls, its directory after a cd,
# carries over as without ptyvisor: its wrapper records `pwd -P` after the
# command when it succeeded; a failing command leaves it where it was.
mkdir -p "$T/work/sub dir" "$T/tmp"
for c in 'cd "sub dir"' 'cd "sub dir" && false'; do
	hook_json "$c" | $PTYVISOR hook claude-code > "$T/h5"
	new=$(jget 'd["hookSpecificOutput"]["updatedInput"]["command"]' < "$T/h5")
	(cd "$T/work" && TMPDIR="$T/tmp" bash -c "eval \"\$1\" < /dev/null &&
	    pwd -P" sh "$new" > "$T/out" 2>&1 < /dev/null)
	(cd "$T/work" && bash -c "eval \"\$1\" < /dev/null && pwd -P" sh \
	    "$c" > "$T/want" 2>&1 < /dev/null)
	is "$(cat "$T/out")" "$(cat "$T/want")" "'$c' then pwd -P, as Claude \
Code runs it: the same as without ptyvisor"
done
ls "$T/tmp" 2> /dev/null | grep -q . && ok 1 "a file left in TMPDIR" ||
    ok 0 "the directory's file is removed"

# --socket and -L name the server for the rewritten command too.
hook_json 'true' | $PTYVISOR hook claude-code --socket "$PTYVISOR_SOCKET" \
    > "$T/h6"
new=$(jget 'd["hookSpecificOutput"]["updatedInput"]["command"]' < "$T/h6")
case $new in
*" exec --cwd-file "*" --socket $PTYVISOR_SOCKET "*|*" --socket '$PTYVISOR_SOCKET' "*)
	ok 0 "--socket: the rewritten exec names the same socket" ;;
*) ok 1 "--socket: the rewritten exec names the same socket: $new" ;;
esac
(cd "$T/work" && env -u PTYVISOR_SOCKET bash -c "$new" < /dev/null)
is "$?" 0 "... and reaches that server with no PTYVISOR_SOCKET"
hook_json 'true' | $PTYVISOR hook claude-code -L pv-test-absent > "$T/h7"
is "$(jget 'd["hookSpecificOutput"]["permissionDecision"]' < "$T/h7")" deny \
    "-L NAME: the server of that name is asked (none: deny)"
jget 'd["hookSpecificOutput"]["permissionDecisionReason"]' < "$T/h7" |
    grep -q 'pv-test-absent'
ok $? "... naming its socket"

# A rule's deny reaches Claude through exec's status and message.
hook_json 'rm -rf /nonexistent-pv-hook' | $PTYVISOR hook claude-code > "$T/h4"
new=$(jget 'd["hookSpecificOutput"]["updatedInput"]["command"]' < "$T/h4")
bash -c "$new" > "$T/out" 2>&1 < /dev/null
is "$?" 126 "denied by a rule: exit 126"
grep -q "denied by rule 'deny rm" "$T/out"; ok $? "... saying which rule"

# Codex's and Gemini CLI's shells, in their own wire formats: Codex's
# exec_command reaches the hook as Bash (runs `bash -lc` outside, `bash -c`
# inside), Gemini CLI's run_shell_command `bash -c` (its whole input given
# back: dir_path kept).
python3 -c 'import json,sys; print(json.dumps({"session_id": "s1",
    "cwd": sys.argv[2], "hook_event_name": "PreToolUse", "tool_name": "Bash",
    "tool_input": {"command": sys.argv[1]}, "tool_use_id": "call_1"}))' \
    "$cmd" "$T/work" | $PTYVISOR hook codex > "$T/c1"
is "$(jget 'd["hookSpecificOutput"]["permissionDecision"]' < "$T/c1")" allow \
    "codex: Bash allowed, rewritten"
new=$(jget 'd["hookSpecificOutput"]["updatedInput"]["command"]' < "$T/c1")
case $new in
"'$self' exec -- bash -c "*|"$self exec -- bash -c "*)
	ok 0 "codex: through $self exec, in bash" ;;
*) ok 1 "codex: through $self exec, in bash: $new" ;;
esac
# (a home of the test's own: the login shell reads no profile of this
# machine's, which may not expect a sandbox's read-only home)
mkdir -p "$T/lhome"
(cd "$T/work" && HOME="$T/lhome" bash -lc "$new" > "$T/out" 2>&1 < /dev/null)
is "$?" 4 "codex: the original's exit status"
(cd "$T/work" && HOME="$T/lhome" bash -lc "$cmd" > "$T/want" 2>&1 < /dev/null)
is "$(cat "$T/out")" "$(cat "$T/want")" "codex: the original's output"
python3 -c 'import json,sys; print(json.dumps({"session_id": "s1",
    "cwd": sys.argv[2], "hook_event_name": "BeforeTool",
    "tool_name": "run_shell_command", "tool_input": {"command": sys.argv[1],
    "description": "a probe", "dir_path": "sub dir"}}))' \
    "$cmd" "$T/work" | $PTYVISOR hook gemini > "$T/g1"
is "$(jget 'sorted(d)+sorted(d["hookSpecificOutput"])+[d["hookSpecificOutput"]["hookEventName"], d["hookSpecificOutput"]["tool_input"]["dir_path"], d["hookSpecificOutput"]["tool_input"]["description"]]' < "$T/g1")" \
    "['hookSpecificOutput', 'hookEventName', 'tool_input', 'BeforeTool', 'sub dir', 'a probe']" \
    "gemini: the whole tool_input given back, rewritten"
new=$(jget 'd["hookSpecificOutput"]["tool_input"]["command"]' < "$T/g1")
case $new in
"'$self' exec --why 'a probe' -- bash -c "*|"$self exec --why 'a probe' -- bash -c "*)
	ok 0 "gemini: through $self exec, in bash -c as Gemini CLI runs it" ;;
*) ok 1 "gemini: through $self exec, in bash -c as Gemini CLI runs it: $new" ;;
esac
(cd "$T/work" && bash -c "$new" > "$T/out" 2>&1 < /dev/null)
is "$?" 4 "gemini: the original's exit status"
is "$(cat "$T/out")" "$(cat "$T/want")" "gemini: the original's output"
# No server: each agent told no in its own format; Codex and Gemini CLI
# would run a call on "ask", so they get "deny" for it.
for a in codex gemini; do
	python3 -c 'import json; print(json.dumps({"tool_name":
	    "Bash" if "'$a'" == "codex" else "run_shell_command",
	    "tool_input": {"command": "true"}}))' |
	    PTYVISOR_SOCKET="$T/none.sock" $PTYVISOR hook $a --when-absent ask \
	    > "$T/n1"
	is "$(jget 'd.get("decision") or d["hookSpecificOutput"]["permissionDecision"]' < "$T/n1")" \
	    deny "$a: no server, --when-absent ask: deny (it has no ask)"
done
# What is not a hook's JSON: the call blocked (2), saying why.
for a in claude-code codex gemini; do
	echo 'not json' | $PTYVISOR hook $a > "$T/n2" 2> "$T/n2.err"
	is "$? $(wc -c < "$T/n2")" "2 0" "$a: input not JSON: blocked (exit 2)"
	grep -q 'not a JSON object' "$T/n2.err"
	ok $? "$a: ... saying why on stderr"
done

# --print-settings: JSON Claude Code's settings take.
$PTYVISOR hook claude-code --print-settings > "$T/settings.json"
is "$(jget 'd["hooks"]["PreToolUse"][0]["matcher"]' < "$T/settings.json")" \
    Bash "--print-settings: a PreToolUse hook on Bash"
jget 'd["hooks"]["PreToolUse"][0]["hooks"][0]["command"]' \
    < "$T/settings.json" | grep -qx "$self hook claude-code"
ok $? "--print-settings: this binary's absolute path"

# --print-settings: the file tools beside Bash; codex's TOML, gemini's JSON.
is "$(jget 'd["hooks"]["PreToolUse"][1]["matcher"]' < "$T/settings.json")" \
    "Write|Edit|MultiEdit|NotebookEdit" "--print-settings: a second hook on the file tools"
# Codex's: its sandbox off (ptyvisor's replaces it), the hooks on its
# shell (Bash) and apply_patch, each trusted by the fingerprint Codex
# computes (SHA-256 of the group as sorted compact JSON), keyed by the
# config.toml of CODEX_HOME.
CODEX_HOME="$T" $PTYVISOR hook codex --print-settings > "$T/codex-hook.toml"
python3 - "$T/codex-hook.toml" "$self" "$(readlink -f "$T")" <<'PY'
import hashlib, json, sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))
cmd = sys.argv[2] + " hook codex"
groups = d["hooks"]["PreToolUse"]
ok = d["sandbox_mode"] == "danger-full-access" and \
    [g["matcher"] for g in groups] == ["^Bash$", "apply_patch"] and \
    all(g["hooks"] == [{"type": "command", "command": cmd}] for g in groups)
for i, g in enumerate(groups):
    fp = json.dumps({"event_name": "pre_tool_use", "matcher": g["matcher"],
                     "hooks": [{"async": False, "command": cmd,
                                "timeout": 600, "type": "command"}]},
                    sort_keys=True, separators=(",", ":"))
    key = "%s/config.toml:pre_tool_use:%d:0" % (sys.argv[3], i)
    ok = ok and d["hooks"]["state"][key]["trusted_hash"] == \
        "sha256:" + hashlib.sha256(fp.encode()).hexdigest()
sys.exit(0 if ok else 1)
PY
ok $? "codex --print-settings: TOML, sandbox_mode, hooks on ^Bash$ and apply_patch, trusted"
$PTYVISOR hook gemini --print-settings > "$T/gemini-hook.json"
is "$(jget '" ".join(h["matcher"]+" "+h["hooks"][0]["command"] for h in d["hooks"]["BeforeTool"])' \
    < "$T/gemini-hook.json")" \
    "^run_shell_command\$ $self hook gemini write_file|replace $self hook gemini" \
    "gemini --print-settings: BeforeTool hooks on run_shell_command and write_file|replace"
is "$(jget 'd["tools"]["allowed"]' < "$T/gemini-hook.json")" \
    "['run_shell_command($self exec)']" \
    "gemini --print-settings: its shell runs nothing but ptyvisor exec"
is "$(jget 'd["permissions"]["allow"]+d["enabledMcpjsonServers"]' < "$T/settings.json")" \
    "['mcp__ptyvisor', 'ptyvisor']" \
    "claude-code --print-settings: ptyvisor's MCP server and tools in, no second prompt"

# The agents' own file tools, in a home and a project of the test's own.
H="$T/home" W="$T/work"
mkdir -p "$H" "$W/.git/hooks" "$W/src"
: > "$H/.bashrc"
ln -s "$H/.bashrc" "$W/rc-link"
ln -s "$H" "$W/home-link"
# tool_json AGENT TOOL PATH: the call as the agent sends it.
tool_json() {
	python3 - "$@" "$W" <<'PY'
import json, sys
agent, tool, path, cwd = sys.argv[1:5]
if agent == "codex":
    inp = {"command": "*** Begin Patch\n*** Add File: src/new.c\n+x\n"
           "*** Update File: " + path + "\n@@\n-a\n+b\n*** End Patch\n"}
elif tool == "NotebookEdit":
    inp = {"notebook_path": path, "new_source": "x"}
else:
    inp = {"file_path": path, "content": "x"}
print(json.dumps({"session_id": "s1", "cwd": cwd, "tool_name": tool,
    "hook_event_name": "BeforeTool" if agent == "gemini" else "PreToolUse",
    "tool_input": inp}))
PY
}
# The reason a hook's answer gives for a denial, or "allow"/"none".
verdict() {
	python3 -c 'import json,sys
t = sys.stdin.read()
if not t: print("none"); sys.exit()
d = json.loads(t)
h = d.get("hookSpecificOutput")
if h: print(h["permissionDecisionReason"] if h["permissionDecision"] == "deny" else h["permissionDecision"])
else: print(d["reason"] if d["decision"] == "deny" else d["decision"])'
}
for agent in claude-code codex gemini; do
	case $agent in
	claude-code) tools="Write Edit MultiEdit NotebookEdit" ;;
	codex) tools=apply_patch ;;
	gemini) tools="write_file replace" ;;
	esac
	for tool in $tools; do
		for t in ".claude/settings.local.json|$W/.claude/settings.local.json|Claude Code's project settings" \
		    "$H/.claude/settings.json|$H/.claude/settings.json|Claude Code's user settings" \
		    ".git/hooks/pre-commit|$W/.git/hooks/pre-commit|next git commit" \
		    "$H/.bashrc|$H/.bashrc|next shell" \
		    "$PTYVISOR_CONFIG/rules|$PTYVISOR_CONFIG/rules|ptyvisor's rules" \
		    "rc-link|$W/rc-link leads to $H/.bashrc|next shell" \
		    "home-link/.zshrc|$W/home-link/.zshrc leads to $H/.zshrc|next shell" \
		    "src/../../work/.gemini/settings.json|$W/.gemini/settings.json|Gemini CLI's project settings" \
		    "$H/.ssh/id_ed25519|$H/.ssh/id_ed25519 is hidden|private keys"; do
			path=${t%%|*} rest=${t#*|}
			want=${rest%%|*} why=${rest#*|}
			tool_json $agent $tool "$path" |
			    HOME="$H" $PTYVISOR hook $agent > "$T/g" 2> "$T/g.err"
			rc=$?
			got=$(verdict < "$T/g")
			case "$rc $got" in
			"0 ptyvisor: $want"[,\ ]*"$why"*"an agent may not "*) ok 0 "$agent $tool $path: denied, saying why" ;;
			*) ok 1 "$agent $tool $path: denied, saying why: $rc $got $(cat "$T/g.err")" ;;
			esac
		done
		# An ordinary file: no decision, exactly as before.
		tool_json $agent $tool src/main.c |
		    HOME="$H" $PTYVISOR hook $agent > "$T/g" 2> "$T/g.err"
		is "$? $(wc -c < "$T/g") $(wc -c < "$T/g.err")" "0 0 0" \
		    "$agent $tool src/main.c: exit 0, no output"
	done
done
# The reason names the whole list in one sentence, as mcp's tools do.
tool_json gemini write_file "$H/.bashrc" | HOME="$H" $PTYVISOR hook gemini |
    verdict > "$T/why"
printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' |
    $PTYVISOR mcp > "$T/tools.json" 2> /dev/null
python3 - "$T/why" "$T/tools.json" <<'PY'
import json, sys
why = open(sys.argv[1]).read()
s = why[why.index("In every ptyvisor sandbox"):].strip()
run = json.load(open(sys.argv[2]))["result"]["tools"][0]["description"]
sys.exit(0 if s.endswith("credentials are hidden.") and s in run else 1)
PY
ok $? "the denial's sentence on the guarded paths is run's, word for word"
# Another tool of each agent, and a shell tool the hook leaves alone.
for a in "codex exec_command" "gemini read_file" "claude-code Read"; do
	tool_json ${a% *} ${a#* } "$H/.bashrc" |
	    HOME="$H" $PTYVISOR hook ${a% *} > "$T/g" 2> "$T/g.err"
	is "$? $(wc -c < "$T/g")" "0 0" "$a on a guarded path: no decision"
done
# After a cd, Claude Code still reads its project's settings where it
# started (CLAUDE_PROJECT_DIR, which it gives its hooks): they stay
# guarded from the new directory too.
python3 -c 'import json,sys; print(json.dumps({"cwd": sys.argv[1] + "/src",
    "tool_name": "Write", "hook_event_name": "PreToolUse", "tool_input":
    {"file_path": "../.claude/settings.local.json",
     "content": "{\"disableAllHooks\": true}"}}))' "$W" |
    HOME="$H" CLAUDE_PROJECT_DIR="$W" $PTYVISOR hook claude-code |
    verdict > "$T/why"
grep -q "^ptyvisor: $W/.claude/settings.local.json is protected" "$T/why"
ok $? "claude-code: from a subdirectory, the project's .claude/ is still protected" ||
    sed 's/^/# /' "$T/why"
# A patch with a guarded file among ordinary ones: the whole call denied.
python3 -c 'import json,sys; print(json.dumps({"cwd": sys.argv[1],
    "tool_name": "apply_patch", "tool_input": {"command": "*** Begin Patch\n"
    "*** Update File: src/a.c\n@@\n-a\n+b\n*** Delete File: src/b.c\n"
    "*** Update File: src/c.c\n*** Move to: .git/config\n@@\n-a\n+b\n"
    "*** Add File: src/d.c\n+x\n*** End Patch\n"}}))' "$W" |
    HOME="$H" $PTYVISOR hook codex | verdict > "$T/why"
grep -q "^ptyvisor: $W/.git/config is protected" "$T/why"
ok $? "codex: a patch moving a file onto .git/config among others is denied"
$PTYVISOR hook emacs < /dev/null 2> /dev/null
is "$?" 125 "hook: an unknown agent: 125"

# The MCP recipes, parsed by their formats' own rules.
for a in claude gemini; do
	$PTYVISOR mcp --print-config $a > "$T/$a.json" 2> "$T/$a.err"
	is "$?" 0 "mcp --print-config $a"
	is "$(jget 'd["mcpServers"]["ptyvisor"]["command"]+" "+" ".join(d["mcpServers"]["ptyvisor"]["args"])' \
	    < "$T/$a.json")" "$self mcp" "$a: JSON naming $self mcp"
	grep -q "2026-07-28, 2025-11-25, 2025-06-18, 2025-03-26" "$T/$a.err"
	ok $? "$a: the revisions spoken, on stderr"
	is "$(jget 'd["mcpServers"]["ptyvisor"]["timeout"]' < "$T/$a.json")" \
	    600000 "$a: a tool timeout above wait_s"
done
is "$(jget 'd["mcpServers"]["ptyvisor"]["trust"]' < "$T/gemini.json")" True \
    "gemini: trusted (else Gemini CLI offers no tool of it without asking)"
$PTYVISOR mcp --print-config codex > "$T/codex.toml"
is "$?" 0 "mcp --print-config codex"
python3 - "$T/codex.toml" "$self" <<'PY'
import sys, tomllib
d = tomllib.load(open(sys.argv[1], "rb"))["mcp_servers"]["ptyvisor"]
sys.exit(0 if d["command"] == sys.argv[2] and d["args"] == ["mcp"] and
         d["tool_timeout_sec"] > 30 and
         d["default_tools_approval_mode"] == "approve" and
         "PTYVISOR_SOCKET" in d["env_vars"] and
         "XDG_RUNTIME_DIR" in d["env_vars"] else 1)
PY
ok $? "codex: TOML with command, args, the variables naming the server, no second prompt and a tool timeout above wait_s"
grep -q "2026-07-28" "$T/codex.toml"; ok $? "codex: the revisions, as a comment"
$PTYVISOR mcp --print-config emacs > /dev/null 2>&1
is "$?" 125 "an unknown agent: 125"

# doc/agents.md: every json and toml block parses.
python3 - "$top_srcdir/doc/agents.md" <<'PY'
import json, re, sys, tomllib
text = open(sys.argv[1]).read()
blocks = re.findall(r"```(json|toml)\n(.*?)```", text, re.S)
for kind, body in blocks:
    if kind == "json":
        json.loads(body)
    else:
        tomllib.loads(body)
print("# %d blocks" % len(blocks))
sys.exit(0 if len(blocks) >= 4 else 1)
PY
ok $? "doc/agents.md: its JSON and TOML snippets parse"
# ... and are what ptyvisor prints (its path as /usr/local/bin/ptyvisor,
# Codex's fingerprints, which hash the path, left out).
for p in "hook claude-code --print-settings" "mcp --print-config claude" \
    "hook codex --print-settings" "mcp --print-config codex" \
    "hook gemini --print-settings" "mcp --print-config gemini"; do
	HOME=/home/you $PTYVISOR $p 2> /dev/null |
	    sed "s|$self|/usr/local/bin/ptyvisor|g" > "$T/printed"
	python3 - "$top_srcdir/doc/agents.md" "$T/printed" <<'PY'
import re, sys
mask = lambda t: re.sub(r"sha256:[0-9a-f]{64}", "sha256:X", t)
sys.exit(0 if mask(open(sys.argv[2]).read()) in mask(open(sys.argv[1]).read())
         else 1)
PY
	ok $? "doc/agents.md shows what '$p' prints"
done
done_testing
