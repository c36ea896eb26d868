#!/bin/sh
# `ptyvisor mcp` end to end against a real `ptyvisor serve`: the official
# MCP SDK clients (v1 with the initialize handshake, v2 probing
# server/discover and speaking 2026-07-28) run every tool
# (tests/mcp/sdk.mjs), raw JSON lines cover what the SDKs never send
# (tests/mcp/raw.py), and no server means nothing runs.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T' $OUTSIDE/pv-mcp-escape-v1 $OUTSIDE/pv-mcp-escape-v2"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock" OUTSIDE
mkdir -p "$T/config" "$T/work"
cat > "$T/config/rules" <<'RULES'
deny rm **
ask mkdir **
RULES

# No server: an error result that says how to start one; nothing runs.
out=$(printf '%s\n' '{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"command":"touch '"$T"'/ran"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}' |
    timeout 20 $PTYVISOR mcp)
is "$?" 0 "no server: mcp answers and ends at EOF"
echo "$out" | grep -q '"isError":true' && echo "$out" |
    grep -q "ptyvisor serve" && [ ! -e "$T/ran" ]
ok $? "no server: an error result saying how to start one; nothing ran"

$PTYVISOR serve --approval never 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10; ok $? "serve listens"

# Each line "ok - NAME" / "not ok - NAME" of a checker becomes a TAP line.
report() {
	while IFS= read -r line; do
		case $line in
		"ok - "*) ok 0 "${line#ok - }" ;;
		"not ok - "*) ok 1 "${line#not ok - }" ;;
		*) printf "%s\n" "$line" ;;
		esac
	done < "$1"
}

python3 "$top_srcdir/tests/mcp/raw.py" "$PTYVISOR" "$T/work" > "$T/raw.out" \
    2>&1
report "$T/raw.out"
grep -q "^ok - raw: stdout" "$T/raw.out"; ok $? "raw checks ran to the end"

# The settings file's [mcp] max_bytes caps the text; --max-bytes wins.
mkdir -p "$T/config2"
cp "$T/config/rules" "$T/config2/rules"
printf '[mcp]\nmax_bytes = 2K\n' > "$T/config2/config"
seq_call='{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"run","arguments":{"command":"seq 1 3000"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}'
for how in "" "--max-bytes 4096"; do
	rm -f "$T/cap.out"
	# Input ends once the answer is there (end of input ends mcp).
	(printf '%s\n' "$seq_call"; wait_for "[ -s '$T/cap.out' ]" 50) |
	    PTYVISOR_CONFIG="$T/config2" timeout 60 $PTYVISOR mcp $how \
	    > "$T/cap.out"
	python3 - "$T/cap.out" "${how:+4096}" <<'PY'
import json, sys
t = json.loads(open(sys.argv[1]).readline())["result"]["content"][0]["text"]
cap = int(sys.argv[2] or 2048)
sys.exit(0 if "bytes not shown" in t and cap - 200 < len(t) < cap + 200 and
         t.startswith("1\n2\n") and t.endswith("3000\n[exit 0]") else 1)
PY
	ok $? "the text capped at ${how:-[mcp] max_bytes = 2K}"
done

# The SDK clients, installed by scripts/bootstrap (npm ci in tests/mcp).
mods="$top_srcdir/tests/mcp/node_modules/@modelcontextprotocol"
if ! command -v node > /dev/null || ! command -v npm > /dev/null; then
	skip "node and npm are not installed (scripts/bootstrap deps)"
	done_testing
fi
if [ ! -d "$mods/sdk" ] || [ ! -d "$mods/client" ]; then
	(cd "$top_srcdir/tests/mcp" && timeout 300 npm ci --no-audit \
	    --no-fund > "$T/npm.log" 2>&1)
	if [ ! -d "$mods/sdk" ] || [ ! -d "$mods/client" ]; then
		skip "npm cannot reach its registry to install the MCP SDK clients: $(tail -n 1 "$T/npm.log")"
		done_testing
	fi
fi
# Both clients at once (each runs a 70 s command beside its other checks).
for era in v1 v2; do
	mkdir -p "$T/work/$era"
	(cd "$top_srcdir/tests/mcp" && timeout 600 node sdk.mjs $era "$PTYVISOR" \
	    "$T/work/$era" > "$T/$era.out" 2>&1; echo "exit $?" >> "$T/$era.out") &
	eval "pid_$era=\$!"
done
wait $pid_v1 $pid_v2
for era in v1 v2; do
	report "$T/$era.out"
	grep -q "^exit 0$" "$T/$era.out"
	ok $? "the $era client ran to the end"
done
done_testing
