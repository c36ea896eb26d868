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

# What the exec request cannot carry and the server refuses (a profile it
# does not know, a bad variable name): the server's own words, as an error
# result, from run and session_start alike; nothing runs.
python3 - "$PTYVISOR" "$T" <<'PY'
import json, subprocess, sys
pv, t = sys.argv[1], sys.argv[2]
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}
bad_profile = ("'sandbox' must be read-only, workspace-write or "
               "danger-full-access")
calls = [("run", {"command": "touch %s/refused1" % t, "sandbox": "bogus"},
          bad_profile),
         ("session_start", {"command": "touch %s/refused2" % t,
                            "sandbox": "bogus"}, bad_profile),
         ("run", {"command": "touch %s/refused3" % t, "env": {"A=B": "c"},
                  "sandbox": "bogus"}, "'env' has a bad variable name")]
lines = "".join(json.dumps({"jsonrpc": "2.0", "id": i, "method": "tools/call",
                            "params": {"name": n, "arguments": a,
                                       "_meta": meta}}) + "\n"
                for i, (n, a, _) in enumerate(calls))
out = subprocess.run([pv, "mcp"], input=lines, capture_output=True,
                     text=True, timeout=60).stdout.splitlines()
bad = len(out) != len(calls)
for line in out:
    r = json.loads(line)
    words = calls[r["id"]][2]
    res = r["result"]
    sc = res["structuredContent"]
    bad |= (res["isError"] is not True or
            res["content"] != [{"type": "text", "text": "ptyvisor: " + words}]
            or sc["reason"] != words or sc["session"] is not None or
            sc["denied"] is not False or sc["running"] is not False)
for i in (1, 2, 3):
    try:
        open("%s/refused%d" % (t, i))
        bad = True
    except OSError:
        pass
if bad:
    print("#", out)
sys.exit(1 if bad else 0)
PY
ok $? "what the server refuses: its own words, as an error result; nothing ran"

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
