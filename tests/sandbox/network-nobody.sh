#!/bin/sh
# network-nobody.sh - network.sh again as an unprivileged user (nobody),
# where the network namespace comes from a user namespace and the proxy
# runs with nobody's rights: the verdicts must be the same.

. "$top_srcdir/tests/tap.sh"

if [ "$(id -u)" -ne 0 ]; then
	skip "not root: cannot switch to nobody (network.sh already ran as $(id -un))"
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
D=$(mktemp -d "$OUTSIDE/ptyvisor-net-nobody.XXXXXX") || exit 1
cleanup_cmd "rm -rf '$D'"
chmod 755 "$D"
chown nobody:nogroup "$D" || exit 1
# Not exec: our cleanup must still remove the directory afterwards.
NETWORK_DIR=$D HOME=/nonexistent setpriv --reuid=nobody --regid=nogroup \
	--clear-groups sh "$top_srcdir/tests/sandbox/network.sh"
