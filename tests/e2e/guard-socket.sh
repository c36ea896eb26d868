#!/bin/sh
# guard-socket.sh - the control socket is out of every sandbox's reach,
# whatever its network: by its path (hidden), by a hard link made before
# the session, and by /proc/<server>/root (no such process in the
# sandbox's PID namespace); the server refuses a sandboxed peer that
# reaches it all the same.  Per profile, with and without the network.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
pv_serve_setup
pv_serve
cd "$T/ws" || exit 1
# A hard link to the socket, made outside, before any session.
ln "$PTYVISOR_SOCKET" "$T/ws/link.sock"
$PTYVISOR pending --socket "$T/ws/link.sock" > /dev/null 2>&1
ok $? "outside, the link reaches the server (the probes below can fail)"

for profile in read-only workspace-write; do
	for net in "" --network; do
		what="$profile${net:+ $net}"
		timeout 60 $PTYVISOR exec --sandbox "$profile" $net -- sh -c "
			$PTYVISOR pending --socket '$PTYVISOR_SOCKET' && echo path-reached
			$PTYVISOR pending --socket /proc/$SERVE/root'$PTYVISOR_SOCKET' && echo proc-reached
			$PTYVISOR pending --socket '$T/ws/link.sock' && echo link-reached
			true" > "$T/o" 2>&1 < /dev/null &
		shim=$!
		cleanup_pid $shim
		# The network is asked for: approve what waits.
		pv_approve_waiting $shim
		wait $shim
		is "$?" 0 "$what: the command ran"
		! grep -q reached "$T/o"
		ok $? "$what: the socket is out of reach ($(grep -o '[a-z]*-reached' "$T/o" | tr '\n' ' '))"
	done
done
# With the network, the link's connect reaches the listening socket: the
# server itself refuses the sandboxed peer, and logs why.
grep -q "refused pid [0-9]*: it runs in session [0-9]*'s sandbox" "$T/serve.log"
ok $? "the server refused a sandboxed peer, and logged it"
# Its own proxy, outside the sandbox, still asks through it.
$PTYVISOR pending > /dev/null
ok $? "and still answers outside"

done_testing
