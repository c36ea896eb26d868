#!/bin/sh
# short-commands.sh - what supervision adds to a short command, side by
# side in one run: `true` unsandboxed, under bwrap with options comparable
# to the sandbox's (read-only root, writable cwd, new user/pid/ipc/uts/net
# namespaces, fresh /proc, private /tmp, no capabilities, die with parent),
# under `ptyvisor sandbox`, through `ptyvisor exec` to a running server
# whose rule allows it (a session: PTY, sandbox, exec checks, recording,
# history, the exit status back), and through the shell shim.  The
# commands take turns, round after round (bench/short-commands.py), so a
# machine whose speed drifts moves them all alike, each started 30 ms after
# the one before ended (a server's own work after an exit is then done, as
# before an agent's next command); the medians, each
# one's ratio to bwrap's, and the two bounds of "short commands are
# cheap": sandbox <= bwrap, exec <= sandbox + 1 ms.  Not part of `make
# check`.
#
# Usage: bench/short-commands.sh [PTYVISOR] [ROUNDS]

PTYVISOR=$(cd "$(dirname "${1:-./ptyvisor}")" && pwd)/$(basename "${1:-./ptyvisor}")
HERE=$(cd "$(dirname "$0")" && pwd)
ROUNDS=${2:-200}
TRUE=$(command -v true)
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench-short.XXXXXX") || exit 1
SERVE=
cleanup() {
	[ -n "$SERVE" ] && kill "$SERVE" 2> /dev/null && wait "$SERVE" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
mkdir -p "$T/work" "$T/config" && cd "$T/work" || exit 1

"$PTYVISOR" sandbox -- "$TRUE" || { echo "ptyvisor sandbox fails here"; exit 1; }
export PTYVISOR_SOCKET="$T/s.sock" PTYVISOR_STATE_DIR="$T/state" \
	PTYVISOR_CONFIG="$T/config"
printf 'allow %s\n' "$TRUE" > "$T/rules"
"$PTYVISOR" serve --rules "$T/rules" --approval never \
	2> "$T/serve.log" < /dev/null &
SERVE=$!
i=0
while ! "$PTYVISOR" pending > /dev/null 2>&1 && [ $i -lt 100 ]; do
	sleep 0.1; i=$((i + 1))
done
"$PTYVISOR" exec -- "$TRUE" || { echo "ptyvisor exec fails here"; exit 1; }

set -- "true|$TRUE" \
	"ptyvisor sandbox|$PTYVISOR sandbox -- $TRUE" \
	"ptyvisor exec|$PTYVISOR exec -- $TRUE" \
	"ptyvisor-sh -c|$(dirname "$PTYVISOR")/ptyvisor-sh -c $TRUE"
if command -v bwrap > /dev/null && bwrap --unshare-all --die-with-parent \
    --new-session --ro-bind / / --dev-bind /dev /dev --proc /proc \
    --tmpfs /tmp --bind "$T/work" "$T/work" --cap-drop ALL "$TRUE" \
    2> /dev/null; then
	set -- "$@" "bwrap|bwrap --unshare-all --die-with-parent \
--new-session --ro-bind / / --dev-bind /dev /dev --proc /proc --tmpfs /tmp \
--bind $T/work $T/work --cap-drop ALL $TRUE"
else
	echo "bwrap: not installed or not usable here; no comparison with it"
fi
python3 "$HERE/short-commands.py" "$ROUNDS" "$@"
