# lib.sh - what the sandbox tests share (sourced after tests/tap.sh).

# nobody_prepare SCRIPT PREFIX: for a test that runs SCRIPT again as the
# unprivileged user nobody.  Skips (and ends the test) unless we are root,
# setpriv is there and nobody can reach the binary; else sets D to a new
# directory under $OUTSIDE named PREFIX.XXXXXX, readable by everyone,
# removed at exit.
nobody_prepare() {
	if [ "$(id -u)" -ne 0 ]; then
		skip "not root: cannot switch to nobody ($1 already ran as $(id -un))"
		done_testing
	fi
	if ! command -v setpriv > /dev/null; then
		skip "setpriv (util-linux) is not installed"
		done_testing
	fi
	if ! setpriv --reuid=nobody --regid=nogroup --clear-groups \
		test -x "$PTYVISOR"; then
		skip "nobody cannot reach the build directory $top_builddir"
		done_testing
	fi
	D=$(mktemp -d "$OUTSIDE/$2.XXXXXX") || exit 1
	cleanup_cmd "rm -rf '$D'"
	chmod 755 "$D"
}

# nons CMD...: run CMD where no namespace can be made (a user namespace
# whose namespace limits are 0).
nons() {
	unshare --user --map-root-user sh -c '
		for f in /proc/sys/user/max_*_namespaces; do
			echo 0 > "$f" || exit 97
		done
		exec "$@"' sh "$@"
}

# net_upstream DIR [SOCKDIR]: what a filtered network's tests need, or
# skip (and end the test) with the reason: python3, and a network namespace
# for the sandbox; then start upstream.py's servers on 127.0.0.1 (and its
# UNIX echo servers in SOCKDIR; stopped at exit) and set HP (HTTP), EP
# (echo) and DP (digest) to their ports.
net_upstream() {
	if ! command -v python3 > /dev/null; then
		skip "python3 is not installed"
		done_testing
	fi
	if ! "$PTYVISOR" sandbox --network-allow x.test -- true 2> "$1/why"; then
		skip "no network namespace for the sandbox here: $(cat "$1/why")"
		done_testing
	fi
	python3 "$top_srcdir/tests/sandbox/upstream.py" "$1/ports" ${2:+"$2"} &
	cleanup_pid $!
	wait_for "test -s '$1/ports'" 20 || { echo "Bail out! no upstream"; exit 1; }
	read HP EP DP < "$1/ports"
}
