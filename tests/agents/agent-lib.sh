# agent-lib.sh - a real agent CLI for the tests in tests/agents (sourced
# after tap.sh, $T set): the version tests/agents/package.json pins, the
# installed command printing it (npm ci in tests/agents once when none
# does), or the whole test skipped saying why (node, npm or the package
# missing).  The command is left in $agent, its --version in $T/version.

# agent_pin PACKAGE: the version package.json pins.
agent_pin() {
	python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["dependencies"][sys.argv[2]])' \
	    "$top_srcdir/tests/agents/package.json" "$1"
}

# agent_pick VERSION-LINE CANDIDATES: the first command CANDIDATES (a
# function) prints, one a line, whose --version prints VERSION-LINE.
agent_pick() {
	_ap_ifs=$IFS
	IFS='
'
	for c in $($2); do
		IFS=$_ap_ifs
		timeout 30 "$c" --version > "$T/version" 2>&1
		if [ "$(cat "$T/version")" = "$1" ]; then
			agent=$c
			return 0
		fi
	done
	IFS=$_ap_ifs
	return 1
}

# agent_find NAME VERSION-LINE CANDIDATES: agent_pick, after npm ci if
# needed; a skip of the whole test (NAME says what is missing) if not.
# The real agents run once a suite: PTYVISOR_TEST_AGENTS=skip (the
# sanitizer build's run, after the first) skips them, saying so.
agent_find() {
	if [ "${PTYVISOR_TEST_AGENTS:-}" = skip ]; then
		skip "the real agents run once (PTYVISOR_TEST_AGENTS=skip)"
		done_testing
	fi
	if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
		skip "node and npm are not installed (scripts/bootstrap deps)"
		done_testing
	fi
	agent_pick "$2" "$3" && return 0
	(cd "$top_srcdir/tests/agents" && timeout 300 npm ci --no-audit \
	    --no-fund > "$T/npm.log" 2>&1)
	agent_pick "$2" "$3" && return 0
	why=$(grep -m 1 'npm error' "$T/npm.log" || tail -n 1 "$T/version")
	skip "$1 is not installed (npm ci in tests/agents): $why"
	done_testing
}

# agent_claude: Claude Code at the version package.json pins, in $claude
# ($want its version).  Its command is a native binary its postinstall
# puts in place; where npm ran no install scripts, the platform package's
# own copy of it.
agent_claude_candidates() {
	printf '%s\n' "$top_srcdir/tests/agents/node_modules/.bin/claude" \
	    "$top_srcdir"/tests/agents/node_modules/@anthropic-ai/claude-code-linux-*/claude
}
agent_claude() {
	want=$(agent_pin @anthropic-ai/claude-code)
	agent_find "Claude Code $want" "$want (Claude Code)" \
	    agent_claude_candidates
	claude=$agent
}

# agent_standin API NAME [ARGS...]: the stand-in tests/agents/API started
# for run NAME, listening once this returns: its port in $T/NAME.port,
# its request log $T/NAME.log, ARGS after those two, its errors in
# $T/NAME.api.err.
agent_standin() {
	_sa=$1 _sn=$2
	shift 2
	python3 "$top_srcdir/tests/agents/$_sa" "$T/$_sn.port" \
	    "$T/$_sn.log" "$@" 2> "$T/$_sn.api.err" &
	cleanup_pid $!
	wait_for "[ -s '$T/$_sn.port' ]" 10
}

# agent_claude_run NAME SECONDS [VAR=VALUE...] ARGS...: Claude Code in
# $T/work, its HOME $T/NAME, against NAME's Messages API stand-in, nothing
# of ours in its environment but what finds the test's ptyvisor, its
# outside traffic off; its stdout in $T/NAME.out followed by "exit N", its
# stderr in $T/NAME.err.
agent_claude_run() {
	_cn=$1 _cs=$2
	shift 2
	mkdir -p "$T/$_cn.tmp"
	(cd "$T/work" && timeout "$_cs" env -i PATH="$PATH" HOME="$T/$_cn" \
	    TMPDIR="$T/$_cn.tmp" PTYVISOR_SOCKET="$PTYVISOR_SOCKET" \
	    PTYVISOR_CONFIG="$PTYVISOR_CONFIG" \
	    PTYVISOR_STATE_DIR="$PTYVISOR_STATE_DIR" \
	    ANTHROPIC_BASE_URL="http://127.0.0.1:$(cat "$T/$_cn.port")" \
	    ANTHROPIC_API_KEY=sk-ant-fake-test \
	    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 DISABLE_TELEMETRY=1 \
	    DISABLE_ERROR_REPORTING=1 DISABLE_AUTOUPDATER=1 \
	    "$@" < /dev/null > "$T/$_cn.out" 2> "$T/$_cn.err")
	echo "exit $?" >> "$T/$_cn.out"
}
