#!/bin/sh
# The real Claude Code CLI (npm, the version tests/agents/package-lock.json
# pins) with ptyvisor's hook in its settings, talking to a stand-in of the
# Messages API (messages-api.py) whose model asks its Bash tool for `env`:
# the command runs through the test's own `ptyvisor serve` (its session in
# the history and in the output), and what the model gets back carries a
# plain variable but none of the secret values in Claude Code's
# environment.  The same run without the hook proves the probe: there the
# secrets reach the model.  With a settings file ptyvisor refuses, the hook
# blocks the call.  Without node, npm or the registry it skips.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"
. "$top_srcdir/tests/agents/agent-lib.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
SECRETS="sk-openai-fake ghp_fake aws-fake pw-fake sk-ant-fake-test"

# Claude Code, installed by scripts/bootstrap (npm ci in tests/agents), at
# the version package.json pins.
agent_claude
is "$(cat "$T/version")" "$want (Claude Code)" "Claude Code $want, as pinned"

pv_serve_setup
printf 'allow bash -c **\n' > "$T/config/rules"
pv_serve
ok $? "serve answers"
mkdir -p "$T/work" "$T/hooked/.claude" "$T/plain"
$PTYVISOR hook claude-code --print-settings > "$T/hooked/.claude/settings.json"

# run NAME: Claude Code, its HOME $T/NAME, asked to show the environment
# by a stand-in of its own; what the model got back in $T/NAME.result.
run() {
	agent_standin messages-api.py "$1" "$T/$1.json"
	agent_claude_run "$1" 60 OPENAI_API_KEY=sk-openai-fake \
	    GITHUB_TOKEN=ghp_fake AWS_SECRET_ACCESS_KEY=aws-fake \
	    MY_PASSWORD=pw-fake PLAIN_VAR=visible \
	    "$claude" -p "show me the environment" --output-format json \
	    --allowedTools Bash
	python3 - "$T/$1.json" > "$T/$1.result" 2> /dev/null <<'PY'
import json, sys
for m in json.load(open(sys.argv[1]))["messages"]:
    for b in m["content"] if isinstance(m["content"], list) else []:
        if b.get("type") == "tool_result":
            c = b["content"]
            print(c if isinstance(c, str) else
                  "\n".join(x.get("text", "") for x in c))
PY
}

# report NAME: what went wrong, as TAP comments.
report() {
	for f in out err log api.err result; do
		[ -s "$T/$1.$f" ] && sed "s/^/# $1.$f: /" "$T/$1.$f" | head -40
	done
}

# Without the hook: the probe sees the secrets.
run plain
grep -q '"result":"Here is the environment."' "$T/plain.out" &&
    grep -q '^exit 0$' "$T/plain.out"
ok $? "without the hook: Claude Code ran the model's Bash call to the end" ||
    report plain
grep -qx 'PLAIN_VAR=visible' "$T/plain.result"
ok $? "without the hook: the model got env's output"
for s in $SECRETS; do
	grep -q "=$s\$" "$T/plain.result"
	ok $? "without the hook: $s reaches the model (the probe works)"
done
! grep -q '^PTYVISOR_SESSION=' "$T/plain.result"
ok $? "without the hook: not run by ptyvisor"

# With the hook: through ptyvisor, the secrets dropped.
run hooked
grep -q '"result":"Here is the environment."' "$T/hooked.out" &&
    grep -q '^exit 0$' "$T/hooked.out"
ok $? "with the hook: Claude Code ran the model's Bash call to the end" ||
    report hooked
tr -d '\r' < "$T/hooked.result" > "$T/hooked.env"
grep -qx 'PLAIN_VAR=visible' "$T/hooked.env"
ok $? "with the hook: the plain variable reaches the model"
for s in $SECRETS; do
	[ -s "$T/hooked.json" ] && ! grep -q "$s" "$T/hooked.json"
	ok $? "with the hook: $s does not reach the model"
done
sid=$(sed -n 's/^PTYVISOR_SESSION=//p' "$T/hooked.env")
python3 - "$T/state/history.jsonl" "$sid" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
sys.exit(0 if any(r.get("argv") == ["bash", "-c", "env"] and
                  str(r.get("id")) == sys.argv[2] and r.get("code") == 0
                  for r in rows) else 1)
PY
ok $? "with the hook: env ran as ptyvisor's session $sid (its history)" ||
    report hooked

# A settings file ptyvisor refuses: the hook blocks the call (exit 2, the
# error to the model) rather than leave Claude Code to run it unsupervised.
mkdir -p "$T/broken/.claude" "$T/badconf"
cp "$T/hooked/.claude/settings.json" "$T/broken/.claude/"
printf '[sandbox]\npass_env = TWO NAMES\n' > "$T/badconf/config"
good=$PTYVISOR_CONFIG
PTYVISOR_CONFIG="$T/badconf"
run broken
PTYVISOR_CONFIG=$good
grep -q 'pass_env' "$T/broken.result"
ok $? "a broken settings file: the model is told why" || report broken
[ -s "$T/broken.json" ] && ! grep -q 'PLAIN_VAR' "$T/broken.json"
ok $? "... and the command did not run"
is "$(grep -c '"argv":\["bash","-c","env"\]' "$T/state/history.jsonl")" 1 \
    "... not even through ptyvisor"
done_testing
