#!/bin/sh
# web.sh - `ptyvisor web` against a `ptyvisor serve` of the test's own:
# the HTTP checks with curl (Host, tokens, Origin, bounds, beyond
# loopback), then the approval page in a real headless Chromium
# (page.mjs) and a session shown live there (sessions.mjs), then what the
# server recorded of the page's decisions.
# Skipped, saying why, without chromium, curl or tests/web/node_modules
# (scripts/bootstrap deps installs them).
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

. "$top_srcdir/tests/web/web-lib.sh"
W="$top_srcdir/tests/web"
pv_web_need

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
pv_serve_setup
pv_serve

# Beyond loopback without TLS: refused, saying how instead.
timeout 10 $PTYVISOR web --listen 0.0.0.0:0 > "$T/any.out" 2> "$T/any.err"
rc=$?
[ "$rc" -eq 125 ] && grep -q "beyond loopback without TLS" "$T/any.err" &&
    grep -q "ssh -L" "$T/any.err" && [ ! -s "$T/any.out" ]
ok $? "beyond loopback without TLS: refused, ssh -L said ($rc)"

pv_web "$T"
[ ${#APPROVER} -eq 64 ] && [ ${#WATCH} -eq 64 ] && [ "$APPROVER" != "$WATCH" ]
ok $? "two tokens of 256 bits, one each"

code() {
	curl -s -o /dev/null -w '%{http_code}' "$@"
}
is "$(code "$URL")" 200 "the page itself needs no token (it holds nothing)"
is "$(code "${URL}api/state")" 401 "the API without a token: 401"
is "$(code -H "Authorization: Bearer $WATCH" "${URL}api/state")" 200 \
    "the API with a token: 200"
is "$(code -H "Host: attacker.example:$PORT" "$URL")" 421 \
    "another Host (DNS rebinding): refused"
is "$(code -H "Host: localhost:$PORT" "$URL")" 200 "localhost:PORT is its name"

# The WebSocket's handshake: the token in its subprotocols, its Origin.
upgrade() {
	curl -s -o /dev/null -w '%{http_code}' -m 5 --http1.1 \
	    -H "Connection: Upgrade" -H "Upgrade: websocket" \
	    -H "Sec-WebSocket-Version: 13" \
	    -H "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==" "$@" "${URL}ws"
}
is "$(upgrade -H "Origin: http://127.0.0.1:$PORT" \
    -H "Sec-WebSocket-Protocol: ptyvisor, token.$APPROVER")" 101 \
    "a WebSocket from the page's origin with a token opens"
[ "$(upgrade -H "Origin: http://localhost:3000" \
    -H "Sec-WebSocket-Protocol: ptyvisor, token.$APPROVER")" != 101 ]
ok $? "a WebSocket from another origin is refused, token or not"
[ "$(upgrade -H "Origin: http://127.0.0.1:$PORT" \
    -H "Sec-WebSocket-Protocol: ptyvisor")" != 101 ]
ok $? "a WebSocket without a token is refused"

# Its port is claimed: no sandbox's relay of the host's loopback reaches
# it, whatever the sandbox allows.
timeout 20 $PTYVISOR sandbox --network-allow "localhost:$PORT" -- true \
    > /dev/null 2> "$T/relay.err"
rc=$?
if grep -q "namespace\|Landlock\|not supported" "$T/relay.err" &&
    ! grep -q "ptyvisor's own" "$T/relay.err"; then
	skip "no sandbox with a filtered network here: $(head -c 100 "$T/relay.err")"
else
	[ "$rc" -ne 0 ] && grep -q "localhost:$PORT: a port of ptyvisor's own" \
	    "$T/relay.err"
	ok $? "a sandbox allowed localhost:$PORT is refused it: ptyvisor's own ($rc)"
fi

# The page in a real browser.
timeout 180 node "$W/page.mjs" "$URL" "$APPROVER" "$WATCH" "$PTYVISOR" \
    "$top_builddir/tests/web/approval-390x844.png" "$T/ws" \
    > "$T/page.out" 2>&1
pv_web_checks "$T/page.out" $?
[ -s "$top_builddir/tests/web/approval-390x844.png" ]
ok $? "the screenshot is kept: tests/web/approval-390x844.png"

# A session shown live on the page: its screen, its output, keys, its
# history (sessions.mjs).
timeout 120 node "$W/sessions.mjs" "$URL" "$APPROVER" "$WATCH" "$PTYVISOR" \
    "$PTYVISOR_SOCKET" "$T/ws" "$top_builddir/tests/web/sessions.png" \
    > "$T/sessions.out" 2>&1
pv_web_checks "$T/sessions.out" $?

# What the server recorded: the decider, by address and token name.
grep -q "approved by web (127.0.0.1, token approver): printf 'approved-run" \
    "$T/serve.log"
rc=$?
ok $rc "the log says who approved: web (127.0.0.1, token approver)"
[ $rc -eq 0 ] || diag "$(grep -E 'approved|denied' "$T/serve.log")"
grep -q '"by":"web (127.0.0.1, token approver)"' "$T/state/history.jsonl" &&
    grep '"denied"' "$T/state/history.jsonl" | grep -q 'not from a phone'
rc=$?
ok $rc "the history too, and the denial's reason"
[ $rc -eq 0 ] || diag "$(cat "$T/state/history.jsonl")"
grep -q "approved by web (127.0.0.1, token approver) (edited)" \
    "$T/serve.log"
ok $? "an edit is recorded as edited by the web"

# Bounds: failed logins are limited, then refused outright (429).
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	code -H "Authorization: Bearer $(printf '%064d' "$i")" \
	    "${URL}api/state" > /dev/null
done
is "$(code -H "Authorization: Bearer $APPROVER" "${URL}api/state")" 429 \
    "after too many failed logins, every login waits (429)"

# TLS: https only, HTTP/1.1, Host still checked; everywhere needs a name.
if command -v openssl > /dev/null; then
	mkdir -p "$T/tls"
	openssl req -x509 -newkey rsa:2048 -nodes -keyout "$T/tls/key.pem" \
	    -out "$T/tls/cert.pem" -days 1 -subj /CN=localhost \
	    > /dev/null 2>&1
	printf '[web]\ncert = %s\nkey = %s\nhost = localhost\n' \
	    "$T/tls/cert.pem" "$T/tls/key.pem" > "$T/tls/config"
	PTYVISOR_CONFIG="$T/tls" $PTYVISOR web --listen 127.0.0.1:0 \
	    > "$T/tls/web.out" 2> "$T/tls/web.err" &
	TLS=$!
	cleanup_pid $TLS
	wait_for "grep -q '^watch-only:' '$T/tls/web.out'" 20
	TURL=$(sed -n 's/^ptyvisor web: \(http[^ ]*\) .*/\1/p' \
	    "$T/tls/web.out")
	TPORT=${TURL##*:}
	TPORT=${TPORT%/}
	case $TURL in https://localhost:*) r=0 ;; *) r=1 ;; esac
	ok $r "with cert and key: an https link by the host's name ($TURL)"
	is "$(code -k "https://127.0.0.1:$TPORT/api/state" -H \
	    "Authorization: Bearer $(sed -n 's/^watch-only: .*#token=//p' \
	    "$T/tls/web.out")")" 200 "the API over TLS"
	is "$(code -k -H "Host: attacker.example:$TPORT" \
	    "https://127.0.0.1:$TPORT/")" 421 "Host is checked over TLS too"
	[ "$(code "http://127.0.0.1:$TPORT/")" != 200 ]
	ok $? "no plain HTTP beside it"
	kill -TERM $TLS
	wait $TLS
	mkdir -p "$T/tls-any"
	grep -v '^host' "$T/tls/config" > "$T/tls-any/config"
	timeout 10 env PTYVISOR_CONFIG="$T/tls-any" $PTYVISOR web \
	    --listen 0.0.0.0:0 > /dev/null 2> "$T/any.err" < /dev/null
	rc=$?
	[ "$rc" -eq 125 ] && grep -q "needs \[web\] host" "$T/any.err"
	ok $? "every address with TLS but no name: refused, saying so ($rc)"
else
	skip "no openssl to make a certificate"
fi

# A flood while it is stopped, so that it falls far behind: the server
# leaves the session's output out for it (and tells it so) instead of
# dropping it; it goes on.
kill -STOP $WEB
timeout 60 $PTYVISOR exec -- sh -c 'printf "%8000000s\n" ""' \
    > /dev/null 2>&1 < /dev/null
is "$?" 0 "a flood of 8 MB while it is stopped"
kill -CONT $WEB
sleep 1
kill -0 $WEB; ok $? "it goes on afterwards"
! grep -q "is not reading" "$T/serve.log"
ok $? "the server did not drop it"
grep -q "fell behind: [0-9]* bytes of session" "$T/serve.log"
ok $? "it left the output out, and says so in its log"

kill -TERM $WEB
wait $WEB
is "$?" 0 "SIGTERM ends it, status 0"
is "$(cat "$T/web.err")" "" "nothing on its stderr (a sanitizer's report neither)"

# The server going away ends it too, saying so.
$PTYVISOR web --listen 127.0.0.1:0 > "$T/web2.out" 2> "$T/web2.err" &
WEB=$!
cleanup_pid $WEB
wait_for "grep -q '^watch-only:' '$T/web2.out'" 20
kill -TERM $SERVE
wait $WEB
is "$?" 125 "the server gone: it ends with status 125"
grep -q "ptyvisor web: the ptyvisor server closed the connection" "$T/web2.err"
ok $? "... saying why ($(head -c 200 "$T/web2.err"))"
done_testing
