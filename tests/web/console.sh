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

export PTYVISOR_SOCKET="$pv_dir/pv.sock"
pv_web "$pv_dir"
is "$(curl -s -o /dev/null -w '%{http_code}' "${URL}xterm/xterm.js")" 200 \
    "xterm.js is served from beside the build"

timeout 120 node "$W/console.mjs" "$URL" "$APPROVER" "$WATCH" "$pv_dir" \
    "$top_builddir/tests/web/console.png" > "$pv_dir/console.out" 2>&1
pv_web_checks "$pv_dir/console.out" $?

kill -TERM $WEB
wait $WEB
is "$?" 0 "SIGTERM ends ptyvisor web"
is "$(cat "$pv_dir/web.err")" "" "nothing on its stderr"
done_testing
