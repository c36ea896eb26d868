#!/bin/sh
# sandbox-spawn.sh - what the sandbox adds to starting a command: `true`
# unsandboxed, under `ptyvisor sandbox` (default workspace-write), and
# under bwrap with comparable options (read-only root, writable cwd, new
# user/pid/ipc/uts/net namespaces, fresh /proc, private /tmp, dropped
# capabilities, die with parent).  Prints mean times and ratios.  Uses
# hyperfine when installed, else a plain loop.  Not part of `make check`.
#
# Usage: bench/sandbox-spawn.sh [PTYVISOR] [RUNS]

PTYVISOR=${1:-./ptyvisor}
RUNS=${2:-200}
TRUE=$(command -v true)
CWD=$(pwd)

plain="$TRUE"
ours="$PTYVISOR sandbox -- $TRUE"
bwrap="bwrap --unshare-all --die-with-parent --new-session \
--ro-bind / / --dev-bind /dev /dev --proc /proc --tmpfs /tmp \
--bind $CWD $CWD --cap-drop ALL $TRUE"

# Mean milliseconds of RUNS executions of a command line.
mean_ms() {
	if command -v hyperfine > /dev/null; then
		j=$(mktemp)
		hyperfine -N -w 10 -r "$RUNS" --export-json "$j" "$1" \
			> /dev/null 2>&1
		python3 -c 'import json, sys
print("%.3f" % (json.load(open(sys.argv[1]))["results"][0]["mean"] * 1000))' "$j"
		rm -f "$j"
	else
		s=$(date +%s%N)
		i=0
		while [ $i -lt "$RUNS" ]; do $1 > /dev/null; i=$((i + 1)); done
		echo "$(( ($(date +%s%N) - s) / RUNS ))" |
			awk '{ printf "%.3f\n", $1 / 1e6 }'
	fi
}

"$PTYVISOR" sandbox -- "$TRUE" || { echo "ptyvisor sandbox fails here"; exit 1; }
p=$(mean_ms "$plain")
o=$(mean_ms "$ours")
echo "unsandboxed true:        $p ms"
echo "ptyvisor sandbox true:   $o ms  (x$(echo "$o $p" | awk '{ printf "%.1f", $1 / $2 }'), +$(echo "$o $p" | awk '{ printf "%.2f", $1 - $2 }') ms)"
if command -v bwrap > /dev/null && $bwrap 2> /dev/null; then
	b=$(mean_ms "$bwrap")
	echo "bwrap true:              $b ms  (x$(echo "$b $p" | awk '{ printf "%.1f", $1 / $2 }'), +$(echo "$b $p" | awk '{ printf "%.2f", $1 - $2 }') ms)"
	echo "ptyvisor / bwrap:        x$(echo "$o $b" | awk '{ printf "%.2f", $1 / $2 }')"
else
	echo "bwrap: not installed or not usable here"
fi
