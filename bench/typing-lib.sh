# typing-lib.sh - typing latency into a pane, timed from the outside
# (sourced by flood.sh and many.sh): the outer tmux is -L $sock, $rounds
# keys are typed.  see TEXT [S]: wait up to S seconds (10) until the pane
# shows TEXT; measure: type a marker, wait for it, print the ms it took,
# one a line, $rounds times; stats: the median and p95 of those lines.

now_us() { echo $(( $(date +%s%N) / 1000 )); }
cap() { tmux -L $sock capture-pane -p; }
see() {
	_end=$(( $(now_us) + ${2:-10} * 1000000 ))
	until cap | grep -qF -- "$1"; do
		[ "$(now_us)" -ge $_end ] && return 1
	done
	return 0
}

measure() {
	i=0
	while [ $i -lt "$rounds" ]; do
		m="k${i}q"
		t0=$(now_us)
		tmux -L $sock send-keys -l "$m "
		see "$m" 20 || { echo "timeout waiting for $m" >&2; cap | head -3 >&2; }
		t1=$(now_us)
		echo "$(( (t1 - t0) / 1000 ))"
		[ $(( i % 8 )) -eq 7 ] && tmux -L $sock send-keys C-u && sleep 0.05
		i=$((i + 1))
	done
}

stats() {
	sort -n | awk '{ v[NR] = $1 } END {
		printf "%d %d\n", v[int((NR + 1) / 2)], v[int(NR * 0.95 + 0.5)] }'
}
