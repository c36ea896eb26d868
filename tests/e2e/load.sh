#!/bin/sh
# load.sh - the control socket under load, against the real server: 50
# concurrent `ptyvisor exec` clients each with its own exit status; a
# client that never reads its output is waited for (its command held, its
# queue bounded) while the others are served; a 2 MiB request line;
# garbage; half-open connections (one that never says hello closed after
# 30 s); no fd or child of the server leaked
# after a thousand requests (counted before and after).
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

command -v python3 > /dev/null 2>&1 ||
    { echo "1..0 # SKIP python3 is missing"; exit 0; }
client="python3 $top_srcdir/tests/e2e/load-client.py"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
pv_serve_setup
pv_serve
ok $? "the server listens"
alive() { kill -0 $SERVE 2> /dev/null; }
# The server's open fds, and its children (sessions, sandbox relays).
fds() { ls /proc/$SERVE/fd | wc -l; }
children() { ps -o pid= --ppid "$SERVE" | wc -l; }
served() { timeout 30 $PTYVISOR exec -- echo "$1" < /dev/null | tr -d '\r'; }
is "$(served warm)" warm "it serves"
fds0=$(fds)
kids0=$(children)
diag "before: $fds0 fds, $kids0 children"

# A connection that never says hello holds its slot 30 s at most.
python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); time.sleep(300)' \
    "$PTYVISOR_SOCKET" &
SILENT=$!
cleanup_pid $SILENT

# 50 concurrent clients, each its own exit status and output.
i=1
pids=''
while [ $i -le 50 ]; do
	(timeout 60 $PTYVISOR exec -- sh -c "echo out-\$0; exit \$0" $i \
	    > "$T/c$i.out" 2>&1 < /dev/null; echo $? > "$T/c$i.rc") &
	pids="$pids $!"
	i=$((i + 1))
done
wait $pids
bad=''
i=1
while [ $i -le 50 ]; do
	[ "$(cat "$T/c$i.rc")" = $i ] && grep -q "^out-$i" "$T/c$i.out" ||
	    bad="$bad $i"
	i=$((i + 1))
done
is "$bad" "" "50 concurrent execs: each its own exit status and output"

# A client that never reads a flooding session's output.
$client no-read "$PTYVISOR_SOCKET" "$T/stop-flood" > "$T/flood.out" &
FLOOD=$!
cleanup_pid $FLOOD
wait_for "grep -q flooding '$T/flood.out'" 10
ok $? "a client floods itself and never reads"
bad=''
for i in 1 2 3 4 5 6 7 8 9 10; do
	[ "$(served while-$i)" = while-$i ] || bad="$bad $i"
done
is "$bad" "" "the others are served meanwhile"
# Its command is held: blocked on its terminal, it stops using CPU (the
# server reads no more of it than it may queue for the client).
ticks() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2> /dev/null; }
fpid=$(pgrep -f 'echo flood-never-read' | head -n 1)
held=1
for i in 1 2 3 4 5 6 7 8 9 10; do
	a=$(ticks "$fpid"); sleep 1; b=$(ticks "$fpid")
	[ -n "$a" ] && [ "$a" = "$b" ] && { held=0; break; }
done
ok $held "the one that does not read is waited for: its command is held"
! grep -q 'is not reading' "$T/serve.log"
ok $? "and the client is not dropped"
touch "$T/stop-flood"
wait $FLOOD
wait_for "! pgrep -f 'echo flood-never-read' > /dev/null" 10
ok $? "once the client leaves, its session ends"

# A 2 MiB request line.
$client too-long "$PTYVISOR_SOCKET" > "$T/long.out" 2>&1
is "$(cat "$T/long.out")" "error line-too-long
closed" "a 2 MiB line: line-too-long, then the connection is closed"
alive && [ "$(served after-long)" = after-long ]
ok $? "the server is fine after it"

# Garbage.
$client garbage "$PTYVISOR_SOCKET" > "$T/garbage.out" 2>&1
is "$(cat "$T/garbage.out")" "answered-json yes
closed
errors 9 of 9
list after garbage list" \
    "garbage: JSON errors only, closed before hello, answered after it"
alive && [ "$(served after-garbage)" = after-garbage ]
ok $? "the server is fine after it"

# Half-open connections: half a line, and they stay.
$client half-open "$PTYVISOR_SOCKET" 40 "$T/stop-half" > "$T/half.out" &
HALF=$!
cleanup_pid $HALF
wait_for "grep -q 'held 40' '$T/half.out'" 10
ok $? "40 clients hold half a line"
bad=''
for i in 1 2 3 4 5; do
	[ "$(served half-$i)" = half-$i ] || bad="$bad $i"
done
is "$bad" "" "the others are served meanwhile"
touch "$T/stop-half"
wait $HALF
wait_for "grep -c 'left in the middle of a line' '$T/serve.log' |
    grep -qx 40" 10
ok $? "each one that left mid-line is logged"

wait_for "grep -q 'said no hello in 30 s: closed' '$T/serve.log'" 45
ok $? "a client that says no hello is closed after 30 s"
kill $SILENT

# A thousand requests, then count fds and children again.
$client requests "$PTYVISOR_SOCKET" 1000 6 > "$T/req.out" 2>&1
is "$(cat "$T/req.out")" "requests 1000
answered 1000
exits 250
wrong 0" "a thousand requests (250 execs), each answered"
wait_for "[ \$(fds) -eq $fds0 ]" 10
ok $? "no fd leaked (before $fds0, after $(fds))"
wait_for "[ \$(children) -eq $kids0 ]" 10
ok $? "no child leaked (before $kids0, after $(children))"
alive
ok $? "the server is still running"
kill $SERVE
wait $SERVE
is $? 0 "and stops cleanly"

done_testing
