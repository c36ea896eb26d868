#!/bin/sh
# exec-checks.sh - what exec checks cost an exec-heavy command: a shell
# loop of N /bin/true and `make -j2` of M one-line recipes, run in the same
# sandbox three ways, side by side in one run: `ptyvisor sandbox` (no exec
# checks), an agent's session under `serve` with no rule (every exec read
# from /proc, judged and logged), and the same with a rules file of 1,000
# deny and ask rules.  Each is timed R times; the median wall time and the
# ratio to the first are printed.  Then one exec's round trip alone
# (bench/exec-rtt.c: execve of a file that cannot run, N times, no program
# started), in the sandbox and in a session: what the notification, the
# reading and judging and the answer cost.  Not part of `make check`.
#
# Usage: bench/exec-checks.sh [PTYVISOR] [N] [M] [R]

PTYVISOR=$(cd "$(dirname "${1:-./ptyvisor}")" && pwd)/$(basename "${1:-./ptyvisor}")
HERE=$(cd "$(dirname "$0")" && pwd)
N=${2:-5000}
M=${3:-500}
R=${4:-3}
T=$(mktemp -d "${TMPDIR:-/tmp}/pv-bench-exec.XXXXXX") || exit 1
SERVE=
cleanup() {
	[ -n "$SERVE" ] && kill "$SERVE" 2> /dev/null && wait "$SERVE" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT INT TERM
cd "$T" || exit 1
mkdir -p config rules0 rules1000
LOOP="i=0; while [ \$i -lt $N ]; do /bin/true; i=\$((i + 1)); done"
{
	printf 'all:'
	i=0; while [ $i -lt "$M" ]; do printf ' t%d' $i; i=$((i + 1)); done
	printf '\n'
	i=0; while [ $i -lt "$M" ]; do printf 't%d:\n\t@true\n' $i; i=$((i + 1)); done
} > Makefile
printf 'allow sh -c **\nallow make **\n' > rules0/rules
cp rules0/rules rules1000/rules
i=0
while [ $i -lt 500 ]; do
	printf 'deny tool%d **\nask other%d push **\n' $i $i >> rules1000/rules
	i=$((i + 1))
done

# Median of R wall times (seconds) of a command line.
median() {
	k=0
	: > times
	while [ $k -lt "$R" ]; do
		s=$(date +%s%N)
		sh -c "$1" > /dev/null 2>&1
		echo "$(( $(date +%s%N) - s ))" >> times
		k=$((k + 1))
	done
	sort -n times | awk '{ v[NR] = $1 } END { printf "%.3f", v[int((NR + 1) / 2)] / 1e9 }'
}

serve() {
	[ -n "$SERVE" ] && kill "$SERVE" && wait "$SERVE" 2> /dev/null
	export PTYVISOR_SOCKET="$T/$1.sock" PTYVISOR_STATE_DIR="$T/state-$1"
	PTYVISOR_CONFIG="$T/config" "$PTYVISOR" serve --rules "$T/$1/rules" \
		--approval never 2> "$T/serve-$1.log" < /dev/null &
	SERVE=$!
	i=0
	while ! "$PTYVISOR" pending > /dev/null 2>&1 && [ $i -lt 100 ]; do
		sleep 0.1; i=$((i + 1))
	done
}

row() {
	printf '| %-44s | %8s s | %5s |\n' "$1" "$2" \
		"$(echo "$2 $3" | awk '{ printf "%.2f", $1 / $2 }')"
}

echo "exec checks: $N /bin/true from a shell loop, make -j2 of $M recipes; median of $R"
echo
# One table: WORKLOAD (a command line) the three ways, under TITLE.
table() {
	echo "| how | $1 | x |"
	echo "|---|---|---|"
	base=$(median "'$PTYVISOR' sandbox -- $2")
	row "sandbox, no exec checks" "$base" "$base"
	serve rules0
	row "session, exec checks, no rule" \
		"$(median "'$PTYVISOR' exec -- $2")" "$base"
	serve rules1000
	row "session, exec checks, 1,000 rules" \
		"$(median "'$PTYVISOR' exec -- $2")" "$base"
	echo
}

table loop "sh -c '$LOOP'"
n=$(cat "$T"/state-rules1000/sessions/*.exec.jsonl | wc -l)
table "make -j2" "make -s -j2"
echo "execs logged by the 1,000-rule loop sessions: $n"
echo

# One exec's round trip (microseconds), 2,000 times in one program.
RTT=$T/exec-rtt
if ${CC:-cc} -O2 -o "$RTT" "$HERE/exec-rtt.c" 2> /dev/null; then
	echo "| one exec's round trip, 2,000 of them | min | median | p90 | p99 (us) |"
	echo "|---|---|---|---|---|"
	printf '| sandbox, no exec checks | %s |\n' "$("$PTYVISOR" sandbox -- \
		"$RTT" 2000 | awk '{ print $1 " | " $2 " | " $3 " | " $4 }')"
	serve rules0
	printf '| session, exec checks | %s |\n' "$("$PTYVISOR" exec -- "$RTT" \
		2000 | awk '{ print $1 " | " $2 " | " $3 " | " $4 }')"
fi
