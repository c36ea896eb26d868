#!/bin/sh
# flood.sh - typing latency into one pane while another floods (`yes`),
# or runs programs as fast as a shell loop can (each exec checked in
# ptyvisor's sandboxed session), ptyvisor next to tmux, each driven from the outside by a private tmux
# server: type a marker with send-keys, poll capture-pane until it shows.
#
# usage: bench/flood.sh [PTYVISOR] [ROUNDS]
# The figures include the outer tmux's own send/capture round trip
# (a few ms), the same for every program measured.
set -u
pv=${1:-./ptyvisor}
rounds=${2:-30}
sock=pvbench-$$
dir=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench.XXXXXX")
runs=0
# The exec load: a shell loop of /bin/true, long enough to outlast the run.
execs='i=0; while [ $i -lt 200000 ]; do /bin/true; i=$((i+1)); done'
# Each run happens in a subshell ($(run_... | stats)), where runs starts
# at 0 again: its outer server is always pvbench-$$-1, and its trap is not
# ours, so that one is ended here too.
trap 'tmux -L $sock kill-server 2>/dev/null; tmux -L pvbench-$$-1 kill-server 2>/dev/null; tmux -L inner-$$ kill-server 2>/dev/null; rm -rf "$dir"' EXIT

. "$(dirname "$0")/typing-lib.sh"

start_outer() {
	tmux -L $sock kill-server 2>/dev/null
	runs=$((runs + 1))
	sock=pvbench-$$-$runs
	tmux -L $sock -f /dev/null new-session -d -x 160 -y 48 \
	    "env -u TMUX PS1='outer\$ ' PTYVISOR_STATE_DIR='$dir/state' SHELL=/bin/sh /bin/sh"
	see 'outer$'
}

# ptyvisor: pane 1 floods (or idles), pane 2 is typed into.
run_ptyvisor() {
	start_outer
	tmux -L $sock send-keys "PS1='pv\$ ' $pv" Enter
	see ' 1* #'
	tmux -L $sock send-keys C-g c
	see ' 2* #'
	if [ "$1" != idle ]; then
		tmux -L $sock send-keys C-g 1
		if [ "$1" = flood ]; then
			tmux -L $sock send-keys 'yes' Enter
		else
			tmux -L $sock send-keys -l "$execs"
			tmux -L $sock send-keys Enter
		fi
		tmux -L $sock send-keys C-g 2
		sleep 1
	fi
	measure
	tmux -L $sock send-keys C-g q y
}

# tmux: the same inside a nested tmux with two panes.
run_tmux() {
	start_outer
	tmux -L $sock send-keys "PS1='tm\$ ' tmux -L inner-$$ -f /dev/null new-session \\; split-window -h" Enter
	sleep 1
	if [ "$1" != idle ]; then
		# One step at a time: keys sent in one go can reach the
		# flooding pane before tmux has switched back.
		tmux -L $sock send-keys C-b o
		sleep 0.3
		if [ "$1" = flood ]; then
			tmux -L $sock send-keys 'yes' Enter
		else
			tmux -L $sock send-keys -l "$execs"
			tmux -L $sock send-keys Enter
		fi
		sleep 0.3
		tmux -L $sock send-keys C-b o
		sleep 1
	fi
	measure
	tmux -L inner-$$ kill-server 2>/dev/null
}

printf '%-10s %-8s %8s %8s\n' program load median_ms p95_ms
for prog in ptyvisor tmux; do
	for load in idle flood execs; do
		r=$(run_$prog $load | stats)
		set -- $r
		printf '%-10s %-8s %8s %8s\n' $prog $load "$1" "$2"
		eval "${prog}_${load}_med=$1; ${prog}_${load}_p95=$2"
	done
done
for prog in ptyvisor tmux; do
	eval "i=\$${prog}_idle_med f=\$${prog}_flood_med x=\$${prog}_execs_med"
	[ "$i" -gt 0 ] || i=1
	printf '%s: flood/idle median ratio %s, execs/idle %s\n' $prog \
	    "$(awk -v f="$f" -v i="$i" 'BEGIN { printf "%.2f", f / i }')" \
	    "$(awk -v f="$x" -v i="$i" 'BEGIN { printf "%.2f", f / i }')"
done
printf 'ptyvisor/tmux under the exec loop (median): %s\n' \
    "$(awk -v a="$ptyvisor_execs_med" -v b="$tmux_execs_med" 'BEGIN { if (b == 0) b = 1; printf "%.2f", a / b }')"
printf 'ptyvisor/tmux under flood (median): %s\n' \
    "$(awk -v a="$ptyvisor_flood_med" -v b="$tmux_flood_med" 'BEGIN { if (b == 0) b = 1; printf "%.2f", a / b }')"
