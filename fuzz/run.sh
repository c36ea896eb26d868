#!/bin/sh
# Run every libFuzzer target for a while, each on a scratch copy of its
# seeds (the corpus under fuzz/ is never written):
#	fuzz/run.sh [SECONDS] [OUTDIR] [TARGET...]
# SECONDS per target (default 30), OUTDIR as for fuzz/build.sh (default
# ./fuzz-out; built first when a target is missing), TARGETs among cast,
# proto, rules, shsplit, config, mcp (default all).  Exits 1 when a target
# fails (a crash, a leak, undefined behaviour or a broken promise: the
# input is left as OUTDIR/crash-* and the log as OUTDIR/NAME.log); prints
# one line per target with the executions it reached.  FUZZ_RUNS=N stops
# each target after N executions instead (with SECONDS 0, no time limit);
# FUZZ_KEEP=1 keeps OUTDIR/work-NAME from the run before, so that a long
# run goes on from what the last one learnt.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
secs=${1:-30}
out=${2:-fuzz-out}
[ $# -gt 2 ] && shift 2 || set --
targets=${*:-cast proto rules shsplit config mcp}
for t in $targets; do
	[ -x "$out/fuzz-$t" ] || { sh "$top/fuzz/build.sh" "$out" >/dev/null; break; }
done

runs=${FUZZ_RUNS:-}
status=0
for t in $targets; do
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
		echo "fuzz-$t: FAILED (see $out/$t.log)"
		grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' \
		    "$out/$t.log" | head -5
		status=1
		continue
	fi
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$out/$t.log")
	echo "fuzz-$t: $execs executions in $(($(date +%s) - start))s," \
	    "no crash, leak or UB"
done
exit $status
