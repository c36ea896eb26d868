#!/bin/sh
# fulldisk.sh - the state directory's disk fills while a session runs (a
# small tmpfs, mounted in a mount namespace of the test's own): the session
# keeps running and its agent gets all of its output and status, the log
# says why the recording stopped, the recording and the history keep whole
# lines only, what was written before is untouched, and once there is
# room again the server records as before.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

if [ -z "$PV_FULLDISK_NS" ]; then
	command -v unshare > /dev/null 2>&1 ||
	    { echo "1..0 # SKIP unshare is missing"; exit 0; }
	ns="unshare -m --propagation private"
	[ "$(id -u)" = 0 ] || ns="unshare -r -m --propagation private"
	why=$($ns true 2>&1) ||
	    { echo "1..0 # SKIP no mount namespace: $why"; exit 0; }
	PV_FULLDISK_NS=1 exec $ns sh "$0" "$@"
fi

T=$(mktemp -d)
cleanup_cmd "umount '$T/state' 2> /dev/null; rm -rf '$T'"
mkdir -p "$T/state" "$T/config" "$T/ws"
why=$(mount -t tmpfs -o size=256k,mode=0700 tmpfs "$T/state" 2>&1) ||
    { echo "1..0 # SKIP cannot mount a tmpfs: $why"; exit 0; }
pv_serve_setup
pv_serve
ok $? "the server listens (state directory on a 256 KiB tmpfs)"

mark="full-$$"
out=$(cd "$T/ws" && timeout 30 $PTYVISOR exec -- echo before-$mark \
    < /dev/null | tr -d '\r')
is "$out" "before-$mark" "a session before the disk is full"
cp "$T/state/history.jsonl" "$T/history.before"
cast1=$(ls "$T"/state/sessions/*.cast)
cp "$cast1" "$T/cast.before"

# A session that waits for the disk to fill, prints ~240 KB, and waits
# again before it ends.
(cd "$T/ws" && timeout 60 $PTYVISOR exec --raw -- sh -c "echo started; \
while [ ! -e '$T/ws/go' ]; do sleep 0.05; done; i=0; \
while [ \$i -lt 4000 ]; do \
echo \"line \$i padding-padding-padding-padding-padding-padding\"; \
i=\$((i + 1)); done; echo printed; \
while [ ! -e '$T/ws/end' ]; do sleep 0.05; done; echo done-$mark; exit 7" \
    > "$T/exec.out" 2>&1 \
    < /dev/null; echo $? > "$T/exec.rc") &
EXEC=$!
cleanup_pid $EXEC
wait_for "grep -q started '$T/exec.out'" 20
ok $? "a session runs"
dd if=/dev/zero of="$T/state/filler" bs=4096 2> /dev/null
df -k "$T/state" | awk 'NR == 2 { exit $4 != 0 }'
ok $? "the disk is full (the probe is sound)"
touch "$T/ws/go"
wait_for "grep -q printed '$T/exec.out'" 30
wait_for "grep -q 'No space left on device (the command goes on)' '$T/serve.log'" 10
ok $? "the log says so while the session still runs"
touch "$T/ws/end"
wait_for "[ -s '$T/exec.rc' ]" 60
is "$(cat "$T/exec.rc")" 7 "the session kept running: its exit status"
tr -d '\r' < "$T/exec.out" | grep -qx "done-$mark" &&
    tr -d '\r' < "$T/exec.out" | grep -q "^line 3999 "
ok $? "and all of its output reached the agent"
grep -q "No space left on device" "$T/serve.log"
ok $? "the log says the disk is full"
grep "No space left on device" "$T/serve.log" | head -n 3 |
    sed 's/^/# /'

whole() {	# every line of $1 is JSON
	python3 -c 'import json, sys
for l in open(sys.argv[1], "rb"):
    json.loads(l)' "$1"
}
cast2=$(ls -t "$T"/state/sessions/*.cast | head -n 1)
[ "$cast2" != "$cast1" ] && whole "$cast2"
ok $? "the recording holds whole events only"
diag "its last event: $(tail -n 1 "$cast2" | cut -c 1-60)"
whole "$T/state/history.jsonl"
ok $? "the history holds whole lines only"
cmp -s "$cast1" "$T/cast.before"
ok $? "the recording written before is untouched"
head -c "$(wc -c < "$T/history.before")" "$T/state/history.jsonl" |
    cmp -s - "$T/history.before"
ok $? "the history written before is untouched"

# Room again: recorded as before, the history's next line whole.
rm -f "$T/state/filler"
out=$(cd "$T/ws" && timeout 30 $PTYVISOR exec -- echo after-$mark \
    < /dev/null | tr -d '\r')
is "$out" "after-$mark" "with room again, sessions run"
grep -q "\"after-$mark\"" "$T/state/history.jsonl" &&
    whole "$T/state/history.jsonl"
ok $? "and the history gets its whole line"
kill $SERVE
wait $SERVE 2> /dev/null

done_testing
