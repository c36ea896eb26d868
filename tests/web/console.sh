#!/bin/sh
# console.sh - the console on the page of `ptyvisor web`: a console server
# (started in a private tmux, then detached) holding a shell session; the
# page's console (xterm.js, from web/vendor) in a real headless Chromium
# shows it, takes keys and sends them on; a watch-only console takes none
# (console.mjs).  Skipped, saying why, without tmux, chromium, node,
# tests/web/node_modules or web/vendor/node_modules (scripts/bootstrap
# deps installs them).
. "$top_srcdir/tests/e2e/tui-lib.sh"
. "$top_srcdir/tests/web/web-lib.sh"
W="$top_srcdir/tests/web"
pv_web_need
if [ ! -f "$top_srcdir/web/vendor/node_modules/@xterm/xterm/lib/xterm.js" ]; then
	skip "no web/vendor/node_modules (scripts/bootstrap deps: npm ci)"
	done_testing
fi

# The console's server, with a shell session, left running detached.
pv_start 100 30
pv_type "SHELL=$pv_dir/pvsh $PTYVISOR"; pv_keys Enter
pv_see 'pv$' 20; ok $? "the console's shell is up"
pv_type "echo mark-\$((40+2))"; pv_keys Enter
pv_see 'mark-42'
pv_keys C-g d
pv_see '[detached'; ok $? "the console detached, its server runs on"

# The console server's own socket, state and (no) settings.
export PTYVISOR_SOCKET="$pv_dir/pv.sock" PTYVISOR_STATE_DIR="$pv_dir/state"
export PTYVISOR_CONFIG="$pv_dir/config"
pv_web "$pv_dir"
is "$(curl -s -o /dev/null -w '%{http_code}' "${URL}xterm/xterm.js")" 200 \
    "xterm.js is served from beside the build"

timeout 120 node "$W/console.mjs" "$URL" "$APPROVER" "$WATCH" "$pv_dir" \
    "$top_builddir/tests/web/console.png" "$PTYVISOR" \
    > "$pv_dir/console.out" 2>&1
pv_web_checks "$pv_dir/console.out" $?

# A decision typed in the browser console is the web's, as the page's
# buttons' are: by its address and token, not "user (console N, ...)".
by='web (127.0.0.1, token approver)'
grep -q "approved by $by: touch $pv_dir/approved-in-the-browser" \
    "$pv_dir/state/ptyvisor.log"
rc=$?
ok $rc "the log says who approved in the browser console: $by"
[ $rc -eq 0 ] || diag "$(grep -E 'approved|denied' "$pv_dir/state/ptyvisor.log")"
grep 'approved-in-the-browser' "$pv_dir/state/history.jsonl" |
    grep -qF "\"by\":\"$by\""
rc=$?
ok $rc "the history too"
[ $rc -eq 0 ] || diag "$(tail -n 3 "$pv_dir/state/history.jsonl")"
$PTYVISOR history > "$pv_dir/history.out" 2>&1
grep 'approved-in-the-browser' "$pv_dir/history.out" | grep -qF "/$by"
rc=$?
ok $rc "and ptyvisor history"
[ $rc -eq 0 ] || diag "$(cat "$pv_dir/history.out")"
grep -q "client [0-9]* (pid [0-9]*, .*/ptyvisor-web) decides in its console for $by" \
    "$pv_dir/state/ptyvisor.log"
ok $? "the log names the client that said so (its pid and executable)"

kill -TERM $WEB
wait $WEB
is "$?" 0 "SIGTERM ends ptyvisor web"
is "$(cat "$pv_dir/web.err")" "" "nothing on its stderr"
done_testing
