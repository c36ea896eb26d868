# web-lib.sh - what the tests of `ptyvisor web` share (sourced after
# tap.sh): skipping without a browser, starting the front end and reading
# its links, and counting a browser script's checks.

# Skip the test, saying why, without chromium, node, curl or the npm
# packages it needs (scripts/bootstrap deps installs them all).
pv_web_need() {
	if ! command -v chromium > /dev/null || ! command -v node > /dev/null ||
	    ! command -v curl > /dev/null; then
		skip "chromium, node or curl missing (scripts/bootstrap deps)"
		done_testing
	fi
	if [ ! -d "$top_srcdir/tests/web/node_modules/puppeteer-core" ]; then
		skip "no tests/web/node_modules (scripts/bootstrap deps: npm ci)"
		done_testing
	fi
}

# pv_web DIR: start `ptyvisor web` on a free loopback port (pid in $WEB,
# its output in DIR/web.out and DIR/web.err), wait for its links, and set
# $URL, $PORT, $APPROVER and $WATCH.
pv_web() {
	WEB_DIR=$1
	$PTYVISOR web --listen 127.0.0.1:0 > "$1/web.out" 2> "$1/web.err" &
	WEB=$!
	cleanup_pid $WEB
	wait_for "grep -q '^watch-only:' '$1/web.out'" 20
	ok $? "ptyvisor web prints its address and two links"
	URL=$(sed -n 's/^ptyvisor web: \(http[^ ]*\) .*/\1/p' "$1/web.out")
	APPROVER=$(sed -n 's/^approver: .*#token=//p' "$1/web.out")
	WATCH=$(sed -n 's/^watch-only: .*#token=//p' "$1/web.out")
	PORT=${URL##*:}
	PORT=${PORT%/}
}

# pv_web_checks FILE RC: a browser script's lines in FILE as TAP, and its
# status RC.
pv_web_checks() {
	while read -r verdict what; do
		case $verdict in
		PASS) ok 0 "$what" ;;
		FAIL) ok 1 "$what" ;;
		*) diag "$verdict $what" ;;
		esac
	done < "$1"
	is "$2" 0 "the browser's checks ran to their end"
	[ ! -s "$WEB_DIR/web.err" ] ||
	    diag "ptyvisor web's stderr: $(head -c 2000 "$WEB_DIR/web.err")"
}
