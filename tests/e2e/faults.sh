#!/bin/sh
# faults.sh - the server SIGKILLed with an agent's session running: no
# process of the session survives it (even one that ignores SIGHUP and
# SIGTERM), what the command printed is in the recording already (flushed
# within a second, not only at exit), the history has no half line, and a
# new server starts on the same socket path.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
mkdir -p "$T/config" "$T/ws"
printf 'allow sh -c **\nallow echo **\n' > "$T/config/rules"

serve() {
	$PTYVISOR serve --approval on-request 2>> "$T/serve.log" < /dev/null &
	SERVE=$!
	cleanup_pid $SERVE
	wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10
}
serve
ok $? "the server listens"

# A command that ignores hangups and TERM, with a mark to find it by.
mark="faults-$$-$(date +%s%N)"
(cd "$T/ws" && timeout 60 $PTYVISOR exec --raw -- sh -c "trap '' HUP TERM; \
echo printed-$mark; exec sh -c 'trap \"\" HUP TERM; \
while :; do sleep 1; done' $mark" > "$T/exec.out" 2>&1 < /dev/null) &
EXEC=$!
cleanup_pid $EXEC
wait_for "grep -q printed-$mark '$T/exec.out'" 20
ok $? "the agent's command runs and prints"
alive() { pgrep -f "^sh -c .* $mark\$" > /dev/null; }
alive; ok $? "its process is running (the probe is sound)"

# The recording is flushed within a second of the output.
sleep 1.5
kill -9 $SERVE
wait $SERVE 2> /dev/null
cast=$(ls "$PTYVISOR_STATE_DIR"/sessions/*.cast 2> /dev/null | head -n 1)
grep -q "printed-$mark" "$cast" 2> /dev/null
ok $? "what was printed is in the recording after SIGKILL"

wait_for "! alive" 5
ok $? "no process of the session survives the server"
wait_for "! kill -0 $EXEC" 5
ok $? "the agent's exec ends with the server, not at its timeout"
grep -q "printed-$mark" "$T/exec.out"
ok $? "after passing on what was printed"

# Every history line is whole (the lost session may not be in it).
bad=0
if [ -f "$PTYVISOR_STATE_DIR/history.jsonl" ]; then
	python3 -c 'import json, sys
for l in open(sys.argv[1]):
    json.loads(l)' "$PTYVISOR_STATE_DIR/history.jsonl" || bad=1
fi
is "$bad" 0 "the history has no half line"

# A new server on the same path: the dead one's socket is no obstacle.
serve
ok $? "a new server starts on the same socket path"
out=$(timeout 30 $PTYVISOR exec -- echo again < /dev/null | tr -d '\r')
is "$out" again "and serves"
kill $SERVE

done_testing
