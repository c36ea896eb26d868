#!/bin/sh
# hostsvc-nobody.sh - hostsvc.sh again as an unprivileged user (nobody),
# where the network namespace comes from a user namespace, the relays'
# sockets are made there and the proxy runs with nobody's rights: the
# verdicts must be the same.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

nobody_prepare hostsvc.sh ptyvisor-hostsvc-nobody
chown nobody:nogroup "$D" || exit 1
# Not exec: our cleanup must still remove the directory afterwards.
HOSTSVC_DIR=$D HOME=/nonexistent setpriv --reuid=nobody --regid=nogroup \
	--clear-groups sh "$top_srcdir/tests/sandbox/hostsvc.sh"
