# serve-lib.sh - a `ptyvisor serve` of a test's own (sourced after tap.sh):
# its state, settings and socket under $T, rules allowing `sh -c` and
# `echo`, its log in $T/serve.log.

# Set the paths under $T (which must exist) and write the rules.
pv_serve_setup() {
	export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
	export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
	mkdir -p "$T/config" "$T/ws"
	printf 'allow sh -c **\nallow echo **\n' > "$T/config/rules"
}

# Start the server (pid in $SERVE) and wait until it answers on its socket
# (a socket file alone may be a killed server's, not yet replaced).
pv_serve() {
	$PTYVISOR serve --approval on-request 2>> "$T/serve.log" < /dev/null &
	SERVE=$!
	cleanup_pid $SERVE
	wait_for "$PTYVISOR pending > /dev/null 2>&1" 20
}

# pv_approve_waiting PID: wait until a request is pending (or the shim PID
# has ended), then approve every pending request.
pv_approve_waiting() {
	wait_for "[ -n \"\$($PTYVISOR pending)\" ] || ! kill -0 $1 2>/dev/null" 20
	for id in $($PTYVISOR pending | cut -f 1); do
		$PTYVISOR approve "$id"
	done
}
