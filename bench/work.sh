#!/bin/sh
# work.sh - the programs the benchmarks show inside each multiplexer.
# The mode comes from $PVB_MODE, not from arguments: dvtm and ptyvisor
# start new windows as $SHELL, and $SHELL is this script.
#   seq    `seq 1 $PVB_N`, then the end marker
#   ansi   the dense colour/UTF-8/CJK file $PVB_DATA, then the end marker
#   lat    raw terminal, no echo by the line discipline: cat echoes each key
#   flood  `seq` as fast as the pane takes it, for ever
#   mem    wait, print $PVB_N lines of ~100 columns, touch $PVB_DIR/done.PID,
#          stay until $PVB_DIR/quit exists
# Throughput modes write the shell's `times` (its own CPU and the
# payload's) to $PVB_TIMES, so it can be left out of the multiplexer's.
# The end marker is printed in two pieces so no command line shows it.
# (The 0.5 s after it is outside the wall time; its idle CPU is nil.)
end_marker() {
	[ -n "${PVB_TIMES:-}" ] && times >"$PVB_TIMES"
	printf '\033[0m%s-%s\n' PVB END
	# The pane stays a moment so the multiplexer can draw its last frame
	# (one that quits when its sessions end may otherwise not).
	sleep 0.5
}
case ${PVB_MODE:-} in
seq)
	seq 1 "${PVB_N:-3000000}"
	end_marker ;;
ansi)
	cat "$PVB_DATA"
	end_marker ;;
lat)
	stty raw -echo
	printf '%s-%s' PVB READY
	exec cat ;;
flood)
	exec seq 1 2000000000 ;;
mem)
	sleep "${PVB_DELAY:-2}"
	awk -v n="${PVB_N:-10000}" 'BEGIN { for (i = 1; i <= n; i++)
		printf "%07d scrollback line of the memory benchmark, ~100 columns wide: abcdefghijklmnopqrstuvwxyz\n", i }'
	: >"$PVB_DIR/done.$$"
	i=0
	while [ ! -e "$PVB_DIR/quit" ] && [ $i -lt 1200 ]; do
		sleep 0.1
		i=$((i + 1))
	done ;;
*)
	echo "work.sh: PVB_MODE must be seq, ansi, lat, flood or mem" >&2
	exit 2 ;;
esac
