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
