#!/bin/sh
# hostsvc.sh - the host's own services from a filtered network: a port of
# the host's loopback an allow entry names (localhost:PORT, 127.0.0.1:PORT,
# [::1]:PORT; flag, settings file, an agent's request) is reached at the
# same address inside by any client with no proxy settings (curl, Python's
# socket module, redis-cli and psql against servers the test starts on
# 127.0.0.1), bytes intact and counted in the log; any other port is
# refused at once, never asked; the command's own servers still work, a
# relayed port is held; the proxy's port and a port ptyvisor's process
# claims are never relayed.  UNIX sockets stay unreachable unless a unix:
# entry names them, and then only through a relay at the same path (where
# Landlock controls UNIX connects; elsewhere the command does not run),
# never the control socket; the approval says what such a socket grants.
#
# Every server is the test's own on 127.0.0.1 (or a socket under its
# directory).  Runs as whoever starts it; hostsvc-nobody.sh runs it again
# as nobody.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

if [ -n "$HOSTSVC_DIR" ]; then
	T=$HOSTSVC_DIR
else
	T=$(mktemp -d "$OUTSIDE/ptyvisor-hostsvc.XXXXXX") || exit 1
	cleanup_cmd "rm -rf '$T'"
fi
mkdir -p "$T/ws" "$T/config" "$T/sock" || exit 1
# Reachable by the throwaway postgres, which runs as nobody under root.
chmod 755 "$T"
export XDG_CONFIG_HOME="$T/config"
export PTYVISOR_SOCKET="$T/no-server.sock"
diag "running as $(id -un)"
CLIENT="$top_srcdir/tests/sandbox/netclient.py"

net_upstream "$T" "$T/sock"
wait_for "test -S '$T/sock/other.sock'" 10
LOG="$T/net.jsonl"
cd "$T/ws" || exit 1

# sb ALLOW CMD...: CMD under the sandbox allowing the hosts ALLOW.
sb() {
	_allow=$1
	shift
	timeout 60 "$PTYVISOR" sandbox --network-allow "$_allow" \
	    --network-log "$LOG" -- "$@"
}
# free_port: a port nobody listens on now.
free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}
ABI=$(python3 -c 'import ctypes; print(max(0, ctypes.CDLL(None).syscall(444, None, 0, 1)))')
diag "Landlock ABI $ABI"

# Outside, the servers answer: each probe below can succeed.
is "$(python3 "$CLIENT" direct 127.0.0.1 "$EP")" "direct ok ping-through-proxy" \
    "unsandboxed, the echo server answers on 127.0.0.1"
is "$(python3 "$CLIENT" unixecho "$T/sock/echo.sock")" \
    "unixecho ok ping-through-proxy" "... and the UNIX one at its path"

# An allowed loopback port: the same address inside, any client.
is "$(sb "localhost:$EP" python3 "$CLIENT" direct 127.0.0.1 "$EP")" \
    "direct ok ping-through-proxy" \
    "python's socket module reaches the host's 127.0.0.1:$EP, no proxy"
is "$(sb "localhost:$EP" python3 "$CLIENT" direct ::1 "$EP")" \
    "direct ok ping-through-proxy" "... and at ::1"
# localhost is either address: a server on the host's 127.0.0.1 alone
# answers a client inside at ::1 too (nothing of anyone's on the host's
# [::1]:DP, which the relay tries first: checked).
if python3 -c 'import socket, sys; socket.socket(socket.AF_INET6).bind(("::1", int(sys.argv[1])))' "$DP" 2> /dev/null; then
	is "$(sb "localhost:$DP" python3 "$CLIENT" dhalfclose ::1 "$DP" 1000 2000)" \
	    "dhalfclose ok 1000 up equal, 2000 of 2000 down equal" \
	    "localhost: a client at ::1 reaches a server on the host's 127.0.0.1 only"
else
	skip "[::1]:$DP is not free here (or no IPv6)"
fi
is "$(sb "127.0.0.1:$EP" python3 "$CLIENT" direct 127.0.0.1 "$EP")" \
    "direct ok ping-through-proxy" "127.0.0.1:PORT is relayed too"
sb "127.0.0.1:$EP" python3 "$CLIENT" direct ::1 "$EP" > "$T/out"
grep -q '^direct failed ConnectionRefusedError' "$T/out"
ok $? "... but not at ::1 ($(cat "$T/out"))"
is "$(sb "localhost:$EP" python3 "$CLIENT" dbulk 127.0.0.1 "$EP" 8000000)" \
    "dbulk ok 8000000 bytes back, equal" "8 MB each way through the relay, intact"
: > "$LOG"
is "$(sb "localhost:$DP" python3 "$CLIENT" dhalfclose 127.0.0.1 "$DP" 6000000 48000000)" \
    "dhalfclose ok 6000000 up equal, 48000000 of 48000000 down equal" \
    "6 MB up, the way up shut, then 48 MB down: random bytes intact"
python3 - "$LOG" "$DP" > "$T/logcheck" <<'EOF'
import json, sys
for l in map(json.loads, open(sys.argv[1])):
    print(l["proto"], l["host"], l["port"] == int(sys.argv[2]),
          l["address"], l["decision"], l["sent"], l["received"], l["why"])
EOF
is "$(cat "$T/logcheck")" "tcp localhost True 127.0.0.1 allow 6000009 48000065 \
on the allow list (localhost:$DP), relayed from the sandbox's loopback" \
    "the relayed connection logged: proto, host, address, why, bytes each way exact"
if command -v curl > /dev/null; then
	# The proxy variables are set, and NO_PROXY sends localhost direct.
	is "$(sb "localhost:$HP" curl -sS -m 10 "http://localhost:$HP/hello" 2>&1)" \
	    "hello-from-upstream host=localhost:$HP" \
	    "curl http://localhost:PORT reaches the host's server (NO_PROXY)"
	is "$(sb "localhost:$HP" curl -sS -m 10 --noproxy '*' "http://127.0.0.1:$HP/hello" 2>&1)" \
	    "hello-from-upstream host=127.0.0.1:$HP" "... and curl at 127.0.0.1"
	sb "localhost:$HP" curl -sS -m 10 "http://localhost:$HP/big?n=20000000" > "$T/big"
	is "$(wc -c < "$T/big")" 20000000 "curl: 20 MB through the relay, whole"
	sb "localhost:$EP" curl -sS -m 10 "http://localhost:$HP/hello" > "$T/out" 2>&1
	grep -q "Failed to connect to localhost port $HP" "$T/out"
	ok $? "curl to a port not allowed: refused ($(head -1 "$T/out"))"
else
	skip "curl is not installed"
fi

# A port nobody allowed: refused at once, by the kernel (nothing listens),
# or by the proxy without asking anyone.
START=$(date +%s%N)
sb "localhost:$EP" python3 "$CLIENT" direct 127.0.0.1 "$HP" > "$T/out"
MS=$(( ($(date +%s%N) - START) / 1000000 ))
grep -q '^direct failed ConnectionRefusedError' "$T/out"
ok $? "a loopback port not allowed is refused ($(cat "$T/out"))"
ok $(( MS > 5000 )) "... at once (the whole sandbox took $MS ms)"
sb "localhost:$EP" python3 "$CLIENT" connect localhost "$HP" > "$T/out"
grep -q "^connect failed HTTP/1.1 403 .*a loopback port not on the allow list" "$T/out"
ok $? "... and through the proxy, refused with the reason ($(cut -c1-120 "$T/out"))"
sb "localhost:$EP" python3 "$CLIENT" connect sub.localhost "$HP" > "$T/out"
grep -q "403 .*a loopback port not on the allow list" "$T/out"
ok $? "... names below localhost too ($(cut -c1-120 "$T/out"))"
: > "$LOG"
sb "localhost:$EP" python3 "$CLIENT" connect localhost "$EP" > "$T/out"
is "$(cat "$T/out")" "connect ok ping-through-proxy" \
    "an allowed port through the proxy (CONNECT localhost:PORT) still works"

# The command's own servers on its own loopback.
is "$(sb "localhost:$EP" python3 "$CLIENT" ownserver)" \
    "ownserver ok ping-through-proxy" "a server the command starts on its loopback works"
sb "localhost:$EP" python3 "$CLIENT" bind "$EP" > "$T/out"
grep -q '^bind failed OSError: \[Errno 98\]' "$T/out"
ok $? "a port both allowed and bound inside: the relay holds it ($(cat "$T/out"))"
P=$(free_port)
is "$(sb "localhost:$EP" python3 "$CLIENT" bind "$P")" "bind ok listening" \
    "... any other port is the command's to bind"

# Denied, with the deny list winning.
"$PTYVISOR" sandbox --network-allow "localhost:$EP" --network-deny "127.0.0.1:$EP" \
    -- python3 "$CLIENT" direct 127.0.0.1 "$EP" > "$T/out"
grep -q '^direct failed ConnectionRefusedError' "$T/out"
ok $? "a deny entry for 127.0.0.1:PORT wins ($(cat "$T/out"))"

# --explain says what is relayed and what happens to the rest.
"$PTYVISOR" sandbox --network-allow "localhost:$EP,[::1]:$HP" --explain > "$T/explain" 2>&1
grep -q "^    localhost:$EP: listened on inside at 127.0.0.1:$EP and \[::1\]:$EP" "$T/explain" &&
    grep -q "^    \[::1\]:$HP: listened on inside at \[::1\]:$HP, relayed by the proxy to the host's ::1" "$T/explain" &&
    grep -q "^    any other loopback port: refused at once (nothing listens there), never asked" "$T/explain" &&
    grep -q "a relayed port, which the relay holds: binding it fails (EADDRINUSE)" "$T/explain" &&
    grep -q "^    never relayed: port 3128 (the proxy's) and the ports ptyvisor's own processes claim" "$T/explain"
ok $? "--explain: each relayed port, the others refused, a port bound inside, what is never relayed"

# ptyvisor's own ports are never relayed.
"$PTYVISOR" sandbox --network-allow localhost:3128 -- true 2> "$T/err"
r=$?
grep -q "localhost:3128: port 3128 is the proxy's own in the sandbox, never relayed" "$T/err"
ok $(( $? + r - 125 )) "the proxy's port is never relayed: exit 125 ($(cat "$T/err"))"
# claim PORT FILE: claim PORT as a process of ptyvisor's does (in the
# background, pid in $CLAIM), then create FILE.
claim() {
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX)
s.bind("\0ptyvisor-own-tcp-" + sys.argv[1])
s.listen(1)
open(sys.argv[2], "w").close()
time.sleep(300)' "$1" "$2" &
	CLAIM=$!
	cleanup_pid $CLAIM
}
P=$(free_port)
claim "$P" "$T/claimed"
wait_for "test -e '$T/claimed'" 10
"$PTYVISOR" sandbox --network-allow "localhost:$P" -- true 2> "$T/err"
r=$?
grep -q "localhost:$P: a port of ptyvisor's own (claimed by its process), never relayed" "$T/err"
ok $(( $? + r - 125 )) "a port ptyvisor's process claims (its web front end) is never relayed ($(cat "$T/err"))"
# Claimed while the sandbox runs: the next connection is cut, and logged.
rm -f "$T/claimed2"
: > "$LOG"
sb "localhost:$EP" sh -c "python3 '$CLIENT' direct 127.0.0.1 $EP
    touch '$T/ws/first'
    while [ ! -e '$T/claimed2' ]; do sleep 0.05; done
    python3 '$CLIENT' direct 127.0.0.1 $EP" > "$T/out" 2>&1 &
SB=$!
cleanup_pid $SB
wait_for "test -e '$T/ws/first'" 20
claim "$EP" "$T/claimed2"
wait $SB
kill $CLAIM
sed -n 2p "$T/out" | grep -q '^direct failed \(ConnectionResetError\|.*closed\|.*EOF\)\|^direct ok $'
ok $? "a port claimed while the sandbox runs is no longer relayed ($(tr '\n' '|' < "$T/out"))"
grep -q "\"decision\":\"deny\",\"why\":\"a port of ptyvisor's own (claimed by its process): never relayed\"" "$LOG"
ok $? "... the refusal logged with the reason"

# Real clients of real servers: redis-cli, psql.
if command -v redis-server > /dev/null && command -v redis-cli > /dev/null; then
	RP=$(free_port)
	redis-server --port "$RP" --bind 127.0.0.1 --save '' --appendonly no \
	    --dir "$T" --logfile "$T/redis.log" --daemonize no > /dev/null 2>&1 &
	cleanup_pid $!
	wait_for "redis-cli -p $RP ping | grep -q PONG" 20
	redis-cli -p "$RP" set greeting from-the-host > /dev/null
	is "$(sb "localhost:$RP" redis-cli -p "$RP" get greeting)" "from-the-host" \
	    "redis-cli reaches the host's redis at 127.0.0.1:$RP"
	sb "localhost:$RP" redis-cli -p "$RP" set written from-inside > /dev/null
	is "$(redis-cli -p "$RP" get written)" "from-inside" "... and writes to it"
	sb "localhost:$EP" redis-cli -p "$RP" ping > "$T/out" 2>&1
	grep -q "Connection refused" "$T/out"
	ok $? "... not when its port is not allowed ($(head -1 "$T/out"))"
else
	skip "redis-server or redis-cli is not installed (Debian: redis-server, redis-tools)"
fi
PGBIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | tail -1)
if command -v psql > /dev/null && [ -x "$PGBIN/initdb" ]; then
	# A throwaway cluster, never as root (postgres refuses it).
	as_pg() { if [ "$(id -u)" -eq 0 ]; then
		setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"
	else "$@"; fi; }
	mkdir -p "$T/pg" && chmod 777 "$T/pg"
	GP=$(free_port)
	as_pg "$PGBIN/initdb" -D "$T/pg/data" -A trust -U tester > "$T/pg/initdb.log" 2>&1 &&
	    as_pg "$PGBIN/pg_ctl" -D "$T/pg/data" -l "$T/pg/log" -w -o \
	    "-p $GP -k $T/pg -c listen_addresses=127.0.0.1,::1" start > /dev/null 2>&1
	if [ $? -eq 0 ]; then
		# Its immediate shutdown, whatever was removed before.
		cleanup_cmd "kill -QUIT $(head -1 "$T/pg/data/postmaster.pid") 2> /dev/null"
		is "$(sb "localhost:$GP" psql -h 127.0.0.1 -p "$GP" -U tester -d postgres -Atc 'select 6 * 7')" \
		    "42" "psql reaches the host's postgres at 127.0.0.1:$GP"
		is "$(sb "localhost:$GP" psql -h localhost -p "$GP" -U tester -d postgres -Atc 'select 1')" \
		    "1" "... by the name localhost"
		sb "localhost:$EP" psql -h 127.0.0.1 -p "$GP" -U tester -d postgres -Atc 'select 1' > "$T/out" 2>&1
		grep -q "Connection refused" "$T/out"
		ok $? "... not when its port is not allowed ($(head -1 "$T/out"))"
		# Its socket directory: relayed where Landlock controls UNIX
		# connects, else the command does not run.
		if [ "$ABI" -ge 9 ]; then
			is "$(sb "unix:$T/pg" psql -h "$T/pg" -p "$GP" -U tester -d postgres -Atc 'select 2')" \
			    "2" "psql reaches postgres through its socket directory, relayed"
		else
			sb "unix:$T/pg" psql -h "$T/pg" -p "$GP" -U tester -d postgres -Atc 'select 2' > "$T/out" 2>&1
			is "$?" 125 "a socket directory named on a kernel without Landlock ABI 9: not run ($(cat "$T/out"))"
		fi
	else
		skip "no throwaway postgres cluster here ($(tail -1 "$T/pg/initdb.log" 2> /dev/null))"
	fi
else
	skip "psql or postgres' initdb is not installed (Debian: postgresql)"
fi

# The settings file's list, and run's log next to its recording.
mkdir -p "$T/config/ptyvisor"
printf '[sandbox]\nnetwork_allow = localhost:%s\n' "$EP" > "$T/config/ptyvisor/config"
is "$("$PTYVISOR" sandbox -- python3 "$CLIENT" direct 127.0.0.1 "$EP")" \
    "direct ok ping-through-proxy" "[sandbox] network_allow = localhost:PORT is relayed"
rm "$T/config/ptyvisor/config"
mkdir -p "$T/state"
PTYVISOR_STATE_DIR="$T/state" timeout 60 "$PTYVISOR" run --network-allow "localhost:$EP" \
    -- python3 "$CLIENT" direct 127.0.0.1 "$EP" < /dev/null > "$T/run.out" 2>&1
PTYVISOR_STATE_DIR="$T/state" "$PTYVISOR" show 1 > "$T/show" 2>&1
grep -q "^  allow localhost:$EP via 127.0.0.1, sent 19, received 19: on the allow list (localhost:$EP), relayed from the sandbox's loopback$" "$T/show"
ok $? "run: show lists the relayed connection ($(grep allow "$T/show"))"

# UNIX sockets: none without a unix: entry, even with ports relayed.
sb "localhost:$EP" python3 "$CLIENT" unix "$T/sock/echo.sock" > "$T/out"
grep -q '^unix failed PermissionError' "$T/out"
ok $? "no UNIX socket reached without a unix: entry ($(cat "$T/out"))"
sb "unix:$T/sock/echo.sock" python3 "$CLIENT" unixecho "$T/sock/echo.sock" > "$T/out" 2>&1
r=$?
if [ "$ABI" -ge 9 ]; then
	is "$(cat "$T/out")" "unixecho ok ping-through-proxy" \
	    "a unix: entry: the socket reached at its path, through the relay"
	sb "unix:$T/sock/echo.sock" python3 "$CLIENT" unix "$T/sock/other.sock" > "$T/out"
	grep -q '^unix failed PermissionError' "$T/out"
	ok $? "... and no other socket ($(cat "$T/out"))"
	grep -q '"proto":"unix","host":"'"$T"'/sock/echo.sock","port":0,"address":"unix","decision":"allow"' "$LOG"
	ok $? "... logged"
else
	is "$r" 125 "a unix: entry without Landlock ABI 9: the command does not run"
	grep -q "a UNIX socket relay needs Landlock's control of UNIX socket connects (ABI 9, Linux 7.1), and this kernel has ABI $ABI, so the command is not run" "$T/out"
	ok $? "... with the reason ($(cut -c1-160 "$T/out"))"
	"$PTYVISOR" sandbox --network-allow "unix:$T/sock/echo.sock" --explain > "$T/explain" 2>&1
	grep -q "Landlock lets it connect by path to those relays and to sockets made inside only (ABI 9): MISSING here, so the command will not run" "$T/explain"
	ok $? "... and --explain says so"
fi
"$PTYVISOR" sandbox --network-allow "unix:$T/sock/echo.sock" --explain > "$T/explain" 2>&1
grep -q "^    unix:$T/sock/echo.sock: WARNING: the command may do whatever the daemon behind it lets its user do (the Docker socket is root on the host)" "$T/explain"
ok $? "--explain warns what a UNIX socket grants"
"$PTYVISOR" sandbox --network-allow "unix:$T/sock/nothing.sock" -- true 2> "$T/err"
r=$?
grep -q "unix:$T/sock/nothing.sock: No such file or directory" "$T/err"
ok $(( $? + r - 125 )) "a unix: entry naming nothing: exit 125 ($(cat "$T/err"))"

# An agent's request naming a loopback port: asked when it is made, with
# the hosts shown; approved, its command reaches the port; one naming a
# UNIX socket is shown with what it grants; the control socket is never
# relayed.
. "$top_srcdir/tests/e2e/serve-lib.sh"
pv_serve_setup
pv_serve || { echo "Bail out! serve did not start"; exit 1; }
"$PTYVISOR" exec --network-allow "localhost:$EP" --why db -- \
    sh -c "python3 '$CLIENT' direct 127.0.0.1 $EP; python3 '$CLIENT' connect localhost $HP" \
    > "$T/exec.out" 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '"$PTYVISOR" pending | grep -q "hosts: localhost:$EP"' 15
ok $? "an agent's request naming localhost:PORT is asked, pending shows it"
"$PTYVISOR" approve "$("$PTYVISOR" pending | awk -F '\t' '/hosts: localhost/ { print $1; exit }')"
wait $EX
head -1 "$T/exec.out" | grep -q "^direct ok ping-through-proxy"
ok $? "approved, its command reaches the port ($(head -1 "$T/exec.out"))"
sed -n 2p "$T/exec.out" | grep -q "403 .*a loopback port not on the allow list"
ok $? "... another loopback port refused at once ($(sed -n 2p "$T/exec.out" | cut -c1-100))"
is "$("$PTYVISOR" pending)" "" "... and nobody was asked about it"
"$PTYVISOR" exec --network-allow "unix:$T/sock/echo.sock" -- true > /dev/null 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '"$PTYVISOR" pending | grep -q "hosts: unix:"' 15
"$PTYVISOR" pending | grep "hosts: unix:$T/sock/echo.sock" |
    grep -q "WARNING: a UNIX socket lets the command do whatever the daemon behind it lets the person do (the Docker socket is root on the host)"
ok $? "pending says what a UNIX socket grants"
"$PTYVISOR" deny "$("$PTYVISOR" pending | awk -F '\t' '/hosts: unix/ { print $1; exit }')"
wait $EX
"$PTYVISOR" sandbox --network-allow "unix:$PTYVISOR_SOCKET" -- true 2> "$T/err"
r=$?
grep -q "unix:$PTYVISOR_SOCKET: $PTYVISOR_SOCKET is hidden from every sandbox (ptyvisor's control socket: approves and denies requests), never relayed" "$T/err"
ok $(( $? + r - 125 )) "the control socket is never relayed ($(cat "$T/err"))"
kill "$SERVE"

done_testing
