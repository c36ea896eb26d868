#!/bin/sh
# guard-nobody.sh - guard.sh again as an unprivileged user (nobody), where
# the mounts are made in a user namespace: the verdicts must be the same.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

nobody_prepare guard.sh ptyvisor-guard-nobody
chown nobody:nogroup "$D" || exit 1
# Not exec: our cleanup must still remove the directory afterwards.
GUARD_DIR=$D setpriv --reuid=nobody --regid=nogroup --clear-groups \
	sh "$top_srcdir/tests/sandbox/guard.sh"
