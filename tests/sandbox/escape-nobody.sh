#!/bin/sh
# escape-nobody.sh - escape.sh again as an unprivileged user (nobody), where
# the namespaces come from a user namespace: the verdicts must be the same.
# The setuid-root copy of the probe is made here, while still root.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

nobody_prepare escape.sh ptyvisor-nobody
cp "$top_builddir/tests/sandbox/probe" "$D/suid" && chmod 4755 "$D/suid"
mkdir "$D/ws" "$D/out" && chown nobody:nogroup "$D/ws" "$D/out" || exit 1
touch "$D/ports" && chown nobody:nogroup "$D" && chown root "$D/suid"
rm -f "$D/ports"
# Not exec: our cleanup must still remove the directory afterwards.
ESCAPE_DIR=$D HOME=/nonexistent setpriv --reuid=nobody --regid=nogroup \
	--clear-groups sh "$top_srcdir/tests/sandbox/escape.sh"
