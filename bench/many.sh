#!/bin/sh
# many.sh - many agents at once: N sessions printing as fast as they can
# (`yes`, for D seconds) beside one pane a person types into, in ptyvisor
# (N `ptyvisor exec` clients of the console's server, each taking its
# session's output as an agent does) and in tmux (N windows of the same
# tmux server), one after the other in one run.  Typing latency into the
# pane is measured from outside, as in flood.sh (send-keys a marker, poll
# capture-pane until it shows, a private outer tmux); for ptyvisor also
# the server's RSS and open descriptors (before, at their highest, after),
# how many sessions failed to start, and each recording's size against
# its cap.  Not part of `make check` (tests/e2e/many.sh is the short
# version that checks the bounds, not the times).
#
# usage: bench/many.sh [PTYVISOR] [N] [D] [ROUNDS]
set -u
pv=${1:-./ptyvisor}
case $pv in /*) ;; *) pv=$(pwd)/$pv ;; esac
n=${2:-100}
dur=${3:-60}
rounds=${4:-30}
cap_mib=4
dir=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench-many.XXXXXX")
sock=pvmany-$$
runs=0
inner=pvmany-inner-$$
clients=
cleanup() {
	for p in $clients; do kill "$p" 2>/dev/null; done
	tmux -L $sock kill-server 2>/dev/null
	tmux -L $inner kill-server 2>/dev/null
	[ -n "${sampler:-}" ] && kill "$sampler" 2>/dev/null
	# The console's server outlives the console: ended by its pid.
	[ -n "${srv:-}" ] || srv=$("$pv" ls --socket "$PTYVISOR_SOCKET" 2>/dev/null |
	    sed -n 's/.*: pid \([0-9]*\),.*/\1/p')
	[ -n "${srv:-}" ] && kill "$srv" 2>/dev/null
	# tmux leaves its socket files behind here: ours only.
	rm -f "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/pvmany-$$"-* \
	    "${TMUX_TMPDIR:-/tmp}/tmux-$(id -u)/$inner"
	rm -rf "$dir"
}
trap cleanup EXIT INT TERM

mkdir -p "$dir/config" "$dir/work"
printf '[record]\nmax_recording = %dM\n' $cap_mib > "$dir/config/config"
printf 'allow timeout **\n' > "$dir/config/rules"
export PTYVISOR_SOCKET="$dir/s.sock" PTYVISOR_STATE_DIR="$dir/state" \
	PTYVISOR_CONFIG="$dir/config"

. "$(dirname "$0")/typing-lib.sh"

start_outer() {
	tmux -L $sock kill-server 2>/dev/null
	runs=$((runs + 1))
	sock=pvmany-$$-$runs
	tmux -L $sock -f /dev/null new-session -d -x 160 -y 48 -c "$dir/work" \
	    "env -u TMUX PS1='outer\$ ' SHELL=/bin/sh /bin/sh"
	see 'outer$' 20
}
fds() { ls "/proc/$1/fd" 2>/dev/null | wc -l; }
rss_kb() { awk '/^VmRSS/ { print $2 }' "/proc/$1/status" 2>/dev/null; }

# ptyvisor: the console (its server a process of its own), N agents.
start_outer
tmux -L $sock send-keys "PS1='pv\$ ' $pv" Enter
see ' 1* #' 20 || { echo "the console did not start"; exit 1; }
srv=$("$pv" ls --socket "$PTYVISOR_SOCKET" | sed -n 's/.*: pid \([0-9]*\),.*/\1/p')
[ -n "$srv" ] || { echo "no server pid"; exit 1; }
fd0=$(fds "$srv"); rss0=$(rss_kb "$srv")
i=0
while [ $i -lt "$n" ]; do
	"$pv" exec --cwd "$dir/work" -- timeout "$dur" yes > /dev/null \
	    2>> "$dir/clients.err" &
	clients="$clients $!"
	i=$((i + 1))
done
t_end=$(( $(now_us) + 15000000 ))
until [ "$(ls "$dir/state/sessions/"*.running 2>/dev/null | wc -l)" -gt "$n" ] ||
    [ "$(now_us)" -ge $t_end ]; do
	sleep 0.2
done
running=$(ls "$dir/state/sessions/"*.running 2>/dev/null | wc -l)
# Sample the server while the latency is measured.
( while kill -0 "$srv" 2>/dev/null; do
	echo "$(fds "$srv") $(rss_kb "$srv")"; sleep 0.5
  done > "$dir/samples" ) &
sampler=$!
pv_lat=$(measure | tee "$dir/pv.lat" | stats)
for p in $clients; do wait "$p"; done
clients=
kill $sampler 2>/dev/null
sleep 1
fd1=$(fds "$srv"); rss1=$(rss_kb "$srv")
fdmax=$(sort -n "$dir/samples" | tail -1 | cut -d' ' -f1)
rssmax=$(sort -k2 -n "$dir/samples" | tail -1 | cut -d' ' -f2)
failed=$(grep -c . "$dir/clients.err")
biggest=$(ls -l "$dir/state/sessions/"*.cast 2>/dev/null | awk '{ print $5 }' | sort -n | tail -1)
tmux -L $sock send-keys C-g q y
sleep 1
kill "$srv" 2>/dev/null
srv=

# tmux: the same N producers as windows of the tmux the pane is in.
start_outer
tmux -L $sock send-keys "tmux -L $inner -f /dev/null new-session" Enter
sleep 1
tmux -L $inner has-session 2>/dev/null || { echo "the inner tmux did not start"; exit 1; }
i=0
while [ $i -lt "$n" ]; do
	tmux -L $inner new-window -d "timeout $dur yes"
	i=$((i + 1))
done
sleep 1
tm_lat=$(measure | tee "$dir/tm.lat" | stats)
tmux -L $inner kill-server 2>/dev/null

set -- $pv_lat; pv_med=$1; pv_p95=$2
set -- $tm_lat; tm_med=$1; tm_p95=$2
echo "$n sessions printing for ${dur}s beside a typed pane; $rounds keys each (ms)"
echo
echo "| | echo median | echo p95 |"
echo "|---|---|---|"
echo "| ptyvisor | $pv_med | $pv_p95 |"
echo "| tmux | $tm_med | $tm_p95 |"
echo
awk -v a="$pv_med" -v b="$tm_med" 'BEGIN { if (b == 0) b = 1;
	printf "ptyvisor / tmux, echo median: %.2f (bound: 2)\n", a / b }'
echo "sessions running at once: $((running - 1)) of $n (the console's shell besides); clients that failed: $failed"
echo "server descriptors: $fd0 before, $fdmax at most, $fd1 after"
echo "server RSS: $rss0 kB before, $rssmax kB at most, $rss1 kB after"
echo "largest recording: $biggest bytes (cap $cap_mib MiB = $((cap_mib * 1048576)))"
