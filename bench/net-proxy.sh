#!/bin/sh
# net-proxy.sh - throughput of a filtered network: 100 MB (or SIZE) read
# from a server on 127.0.0.1 directly, and from inside `ptyvisor sandbox
# --network-allow` through the proxy (CONNECT), RUNS times each; medians in
# MB/s and their ratio, and the median of each pair's ratio (a direct copy
# and the proxied one right after it); the same for 100 MB sent to the
# server (an upload); then the proxy's own CPU time for one copy (the
# proxied copy runs three busy processes, server, proxy and client, where
# the direct one runs two).  Needs namespaces for the sandbox.  Not part
# of `make check`.
#
# Usage: bench/net-proxy.sh [PTYVISOR] [RUNS] [SIZE]

PTYVISOR=${1:-./ptyvisor}
RUNS=${2:-7}
SIZE=${3:-100000000}
HERE=$(cd "$(dirname "$0")" && pwd)
T=$(mktemp -d) || exit 1
trap 'kill $SRV 2> /dev/null; rm -rf "$T"' EXIT INT TERM

python3 "$HERE/netcopy.py" serve "$T/port" &
SRV=$!
i=0
while [ ! -s "$T/port" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
read -r PORT < "$T/port" || { echo "no server"; exit 1; }
echo "127.0.0.1 bench.test" > "$T/hosts"

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

i=0
while [ $i -lt "$RUNS" ]; do
	for way in fetch put; do
		python3 "$HERE/netcopy.py" $way 127.0.0.1 "$PORT" "$SIZE" \
		    >> "$T/direct.$way"
		PTYVISOR_TEST_HOSTS="$T/hosts" "$PTYVISOR" sandbox \
		    --network-allow bench.test -- python3 "$HERE/netcopy.py" \
		    $way --proxy bench.test "$PORT" "$SIZE" >> "$T/proxy.$way" ||
		    { echo "the proxied $way failed"; exit 1; }
	done
	i=$((i + 1))
done
# Where the time goes: the proxy's own CPU time for one more proxied copy
# (it is the process of the sandbox's child that leads its own session).
PTYVISOR_TEST_HOSTS="$T/hosts" "$PTYVISOR" sandbox --network-allow bench.test \
    -- sh -c "python3 '$HERE/netcopy.py' fetch --proxy bench.test $PORT \
    $SIZE > '$T/last'; touch '$T/done'; sleep 2" &
SB=$!
i=0
while [ ! -e "$T/done" ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i + 1)); done
# Still there: the command sleeps before it ends.
for r in $(ps -o pid= --ppid $SB); do
	PX=$(ps -o pid=,sid= --ppid "$r" | awk '$1 == $2 { print $1 }')
done
# In nanoseconds where the kernel keeps them (schedstat): its clock ticks
# (stat) are too coarse for a copy that lasts a few tens of ms.
if [ -r "/proc/$PX/schedstat" ]; then
	CPU=$(awk '{ printf "%.4f", $1 / 1e9 }' "/proc/$PX/schedstat" 2> /dev/null)
else
	TICKS=$(getconf CLK_TCK)
	CPU=$(awk -v t="$TICKS" '{ printf "%.3f", ($14 + $15) / t }' "/proc/$PX/stat" 2> /dev/null)
fi
wait $SB

# Each proxied copy ran right after a direct one: the median of those
# pairs' ratios is less moved by the machine's swings between pairs.
report() {
	d=$(median < "$T/direct.$1")
	p=$(median < "$T/proxy.$1")
	echo "direct loopback $2 $d MB/s (median of $RUNS: $(tr '\n' ' ' < "$T/direct.$1"))"
	echo "through ptyvisor proxy: $p MB/s (median of $RUNS: $(tr '\n' ' ' < "$T/proxy.$1"))"
	awk -v d="$d" -v p="$p" 'BEGIN { printf "ratio: %.0f%%\n", 100 * p / d }'
	pr=$(paste "$T/direct.$1" "$T/proxy.$1" |
	    awk '{ printf "%.3f\n", $2 / $1 }' | median)
	echo "median of the $RUNS pairs' ratios: $(awk -v r="$pr" 'BEGIN { printf "%.0f%%", 100 * r }') ($(paste "$T/direct.$1" "$T/proxy.$1" |
	    awk '{ printf "%.0f%% ", 100 * $2 / $1 }'))"
}
report fetch "copy:  "
echo "upload (the command sends $((SIZE / 1000000)) MB to the server):"
report put "upload:"
[ -n "$CPU" ] && awk -v c="$CPU" -v n="$SIZE" -v m="$(cat "$T/last")" 'BEGIN {
	printf "the proxy: %.4f s of CPU for %d MB at %s MB/s (%.0f MB per CPU second)\n",
	    c, n / 1e6, m, (c > 0 ? n / 1e6 / c : 0) }'
echo "cores: $(nproc); load: $(cut -d' ' -f1-3 /proc/loadavg)"
