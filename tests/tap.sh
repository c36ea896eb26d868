# tap.sh - TAP helpers for the shell tests (sourced, not executed).
#
# ok COND-EXIT NAME, is GOT WANT NAME, wait_for CMD TIMEOUT, done_testing.
# Everything a test starts it registers with `cleanup_pid PID` or
# `cleanup_cmd 'CMD'`; both run on exit, so nothing outlives the test.

# A directory outside every writable root of the default sandbox (which
# makes /tmp writable), for tests whose files the sandbox must not reach.
OUTSIDE=${PTYVISOR_TEST_OUTSIDE:-/var/tmp}

tap_n=0
tap_fail=0
tap_cleanups=''

ok() {
	tap_n=$((tap_n + 1))
	if [ "$1" -eq 0 ]; then
		echo "ok $tap_n - $2"
	else
		echo "not ok $tap_n - $2"
		tap_fail=$((tap_fail + 1))
	fi
}

is() {
	tap_n=$((tap_n + 1))
	if [ "x$1" = "x$2" ]; then
		echo "ok $tap_n - $3"
	else
		echo "not ok $tap_n - $3"
		printf '#   got:  %s\n#   want: %s\n' "$1" "$2" | head -20
		tap_fail=$((tap_fail + 1))
	fi
}

skip() {
	tap_n=$((tap_n + 1))
	echo "ok $tap_n # SKIP $1"
}

diag() {
	echo "# $*"
}

# wait_for 'shell condition' SECONDS: poll every 50 ms until it holds.
wait_for() {
	_wf_end=$(( $(date +%s%N) / 1000000 + ${2:-10} * 1000 ))
	while ! eval "$1" >/dev/null 2>&1; do
		[ $(( $(date +%s%N) / 1000000 )) -ge $_wf_end ] && return 1
		sleep 0.05
	done
	return 0
}

cleanup_pid() { tap_cleanups="$tap_cleanups kill -9 $1 2>/dev/null;"; }
cleanup_cmd() { tap_cleanups="$tap_cleanups $1;"; }

tap_on_exit() {
	eval "$tap_cleanups"
}
trap tap_on_exit EXIT

done_testing() {
	echo "1..$tap_n"
	[ "$tap_n" -gt 0 ] || { echo "# no test ran"; exit 1; }
	[ "$tap_fail" -eq 0 ] || exit 1
	exit 0
}
