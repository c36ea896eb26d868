#!/bin/sh
# Run every libFuzzer target for a while, each on a scratch copy of its
# seeds (the corpus under fuzz/ is never written):
#	fuzz/run.sh [SECONDS] [OUTDIR] [TARGET...]
# SECONDS per target (default 30), OUTDIR as for fuzz/build.sh (default
# ./fuzz-out; built first when a target is missing), TARGETs among cast,
# proto, rules, shsplit, config, mcp, web (default all).  Exits 1 when a target
# fails (a crash, a leak, undefined behaviour or a broken promise: the
# input is left as OUTDIR/crash-* and the log as OUTDIR/NAME.log); prints
# one line per target with the executions it reached.  FUZZ_RUNS=N stops
# each target after N executions instead (with SECONDS 0, no time limit);
# FUZZ_KEEP=1 keeps OUTDIR/work-NAME from the run before, so that a long
# run goes on from what the last one learnt.  Targets run side by side, as
# many at once as there are cores (FUZZ_JOBS=N for another number): each
# still gets its SECONDS, the whole run takes fewer; the lines come out in
# the targets' order.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-30}
out=${2:-fuzz-out}
[ $# -gt 2 ] && shift 2 || set --
targets=${*:-cast proto rules shsplit config mcp web}
for t in $targets; do
	[ -x "$out/fuzz-$t" ] || { sh "$top/fuzz/build.sh" "$out" >/dev/null; break; }
done

runs=${FUZZ_RUNS:-}
jobs=${FUZZ_JOBS:-$(nproc 2>/dev/null || echo 1)}
[ "$jobs" -ge 1 ] 2>/dev/null || jobs=1

# One target: its line (or its failure and the log's key lines) into
# OUTDIR/NAME.result, its status as the result's first word.
one() {
	t=$1
	work="$out/work-$t"
	[ "${FUZZ_KEEP:-0}" = 1 ] || rm -rf "$work"
	mkdir -p "$work"
	# Each of mcp's lines costs a parse and an answer: its inputs grown to
	# libFuzzer's 4 KiB ran at a third of the speed of 1 KiB ones, which
	# still hold a handshake and several calls.
	case $t in
	mcp) opts=-max_len=1024 ;;
	*) opts= ;;
	esac
	start=$(date +%s)
	# shellcheck disable=SC2086
	if ! "$out/fuzz-$t" -max_total_time="$secs" ${runs:+-runs=$runs} \
	    $opts -print_final_stats=1 \
	    -dict="$top/fuzz/$t.dict" -artifact_prefix="$out/" \
	    "$work" "$top/fuzz/corpus/$t" > "$out/$t.log" 2>&1; then
		{
			echo "fail fuzz-$t: FAILED (see $out/$t.log)"
			grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' \
			    "$out/$t.log" | head -5
		} > "$out/$t.result"
		return
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
	echo "ok fuzz-$t: $execs executions in $(($(date +%s) - start))s," \
	    "no crash, leak or UB" > "$out/$t.result"
}

# At most $jobs at once: start one, and when $jobs run, wait for the
# oldest (the targets take about as long as each other).
pids=
for t in $targets; do
	rm -f "$out/$t.result"
	one "$t" &
	pids="$pids $!"
	set -- $pids
	if [ $# -ge "$jobs" ]; then
		wait "$1" || true
		shift
		pids=$*
	fi
done
for p in $pids; do
	wait "$p" || true
done

status=0
for t in $targets; do
	if [ ! -s "$out/$t.result" ]; then
		echo "fuzz-$t: FAILED (no result; see $out/$t.log)"
		status=1
		continue
	fi
	read -r word rest < "$out/$t.result"
	echo "$rest"
	tail -n +2 "$out/$t.result"
	[ "$word" = ok ] || status=1
	rm -f "$out/$t.result"
done
exit $status
