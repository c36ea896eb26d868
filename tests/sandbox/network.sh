#!/bin/sh
# network.sh - a filtered network (--network-allow/--network-deny): the
# command reaches allowed hosts only through ptyvisor's proxy (plain HTTP,
# CONNECT, SOCKS5; curl and Python with the proxy variables; megabytes
# each way, around a half-close, intact and counted), a connection
# that ignores the proxy reaches nothing, a denied host, a host on neither
# list, an IP literal and a wildcard name resolving to loopback are refused
# with the reason, every connection is logged; without namespaces the
# command does not run.
#
# The upstream servers are the test's own on 127.0.0.1; names map to them
# through a hosts file (PTYVISOR_TEST_HOSTS, for tests only).  Runs as
# whoever starts it; network-nobody.sh runs it again as nobody.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

if [ -n "$NETWORK_DIR" ]; then
	T=$NETWORK_DIR
else
	T=$(mktemp -d "$OUTSIDE/ptyvisor-net.XXXXXX") || exit 1
	cleanup_cmd "rm -rf '$T'"
fi
mkdir -p "$T/ws" "$T/config" || exit 1
export XDG_CONFIG_HOME="$T/config"
# No server of anyone's is asked about the test's hosts until it starts its own.
export PTYVISOR_SOCKET="$T/no-server.sock"
diag "running as $(id -un)"
CLIENT="$top_srcdir/tests/sandbox/netclient.py"

net_upstream "$T"
cat > "$T/hosts" <<EOF
# the test's names, all on its own loopback servers
127.0.0.1 allowed.test denied.test other.test a.wild.test ported.test asked.test
127.0.0.1 twice.test once.test remember.test
127.0.0.1 ruled.test both.test unknown.test sbask.test unsaved.test
::1 v6only.test
EOF
export PTYVISOR_TEST_HOSTS="$T/hosts"
LOG="$T/net.jsonl"
cd "$T/ws" || exit 1

# sb CMD...: CMD under the sandbox with the test's lists.
sb() {
	"$PTYVISOR" sandbox --network-allow "allowed.test,*.wild.test" \
	    --network-allow "ported.test:$HP" --network-deny denied.test \
	    --network-log "$LOG" -- "$@"
}
HAVE_CURL=0
command -v curl > /dev/null && HAVE_CURL=1

# Outside, every server answers directly: the probes below can succeed.
is "$(python3 "$CLIENT" direct 127.0.0.1 "$EP")" \
    "direct ok ping-through-proxy" "unsandboxed, the echo server answers"

"$PTYVISOR" sandbox --network-allow "allowed.test" --network-deny \
    denied.test --explain > "$T/explain" 2>&1
grep -q '^network: filtered by host name' "$T/explain" &&
    grep -q 'allow: allowed.test' "$T/explain" &&
    grep -q 'deny:  denied.test' "$T/explain" &&
    grep -q '127.0.0.1:3128' "$T/explain"
ok $? "--explain states the network plan"

sb sh -c 'echo "$HTTP_PROXY $https_proxy $ALL_PROXY $no_proxy"' > "$T/env"
is "$(cat "$T/env")" "http://127.0.0.1:3128 http://127.0.0.1:3128 \
socks5h://127.0.0.1:3128 localhost,127.0.0.1,::1" "the proxy variables are set"

# The namespace's loopback is not paced (a host's BBR is not passed on),
# and the host keeps its own choice.
HOST_CC=$(cat /proc/sys/net/ipv4/tcp_congestion_control 2> /dev/null)
is "$(sb cat /proc/sys/net/ipv4/tcp_congestion_control)" "reno" \
    "the namespace's congestion control does not pace (reno)"
is "$(cat /proc/sys/net/ipv4/tcp_congestion_control 2> /dev/null)" \
    "$HOST_CC" "... and the host's is unchanged ($HOST_CC)"

# Allowed: each way through the proxy.
is "$(sb python3 "$CLIENT" urllib "http://allowed.test:$HP/hello")" \
    "urllib ok hello-from-upstream host=allowed.test:$HP" \
    "python urllib reaches an allowed host (plain HTTP)"
is "$(sb python3 "$CLIENT" connect allowed.test "$EP")" \
    "connect ok ping-through-proxy" "CONNECT to an allowed host carries bytes both ways"
is "$(sb python3 "$CLIENT" bulk allowed.test "$EP" 8000000)" \
    "bulk ok 8000000 bytes back, equal" "8 MB each way through CONNECT, intact"
is "$(sb python3 "$CLIENT" halfclose allowed.test "$DP" 6000000 48000000)" \
    "halfclose ok 6000000 up equal, 48000000 of 48000000 down equal" \
    "6 MB up, the way up shut, then 48 MB down: random bytes intact"
is "$(sb python3 "$CLIENT" socks allowed.test "$EP")" \
    "socks ok ping-through-proxy" "SOCKS5 to an allowed host carries bytes both ways"
is "$(sb python3 "$CLIENT" connect x.a.wild.test "$EP" | cut -d' ' -f1-2)" \
    "connect failed" "a name the hosts file lacks is not found"
if [ $HAVE_CURL = 1 ]; then
	is "$(sb curl -sS -m 10 "http://allowed.test:$HP/hello" 2>&1)" \
	    "hello-from-upstream host=allowed.test:$HP" "curl reaches an allowed host"
	is "$(sb curl -sS -m 10 -p "http://allowed.test:$HP/hello" 2>&1)" \
	    "hello-from-upstream host=allowed.test:$HP" "curl through a CONNECT tunnel"
	is "$(sb curl -sS -m 10 --socks5-hostname 127.0.0.1:3128 \
	    "http://allowed.test:$HP/hello" 2>&1)" \
	    "hello-from-upstream host=allowed.test:$HP" "curl through SOCKS5"
	sb curl -sS -m 20 "http://allowed.test:$HP/big?n=20000000" > "$T/big"
	is "$(wc -c < "$T/big")" 20000000 "curl: 20 MB through the proxy, whole"
	is "$(tr -d x < "$T/big" | wc -c)" 0 "... every byte as sent"
	is "$(sb curl -sS -m 10 "http://ported.test:$HP/hello" 2>&1)" \
	    "hello-from-upstream host=ported.test:$HP" "a host allowed on its port"
else
	skip "curl is not installed"
fi

# Ignoring the proxy reaches nothing.
sb python3 "$CLIENT" direct 127.0.0.1 "$EP" > "$T/direct"
grep -q '^direct failed ConnectionRefusedError' "$T/direct"
ok $? "a direct connection that ignores the proxy fails ($(cat "$T/direct"))"
sb python3 "$CLIENT" unix "$T/ports" > "$T/unix"
grep -q '^unix failed PermissionError' "$T/unix"
ok $? "no UNIX socket but socketpairs ($(cat "$T/unix"))"

# Refused, each with its reason.
refused() {	# refused HOST PORT REASON-PATTERN NAME
	sb python3 "$CLIENT" connect "$1" "$2" > "$T/out" 2>&1
	grep -q "^connect failed HTTP/1.1 403 .*$3" "$T/out"
	ok $? "$4 ($(cut -c1-150 "$T/out"))"
}
refused denied.test "$EP" "on the deny list (denied.test)" "a denied host is refused"
refused other.test "$EP" "not on the allow list" "a host on neither list is refused"
refused 127.0.0.1 "$EP" "a private, loopback or link-local address" "an IP literal (loopback) is refused"
refused 169.254.169.254 80 "a private, loopback or link-local address" "the metadata address is refused"
refused 2130706433 "$EP" "a private, loopback" "a loopback address written as a number is refused"
refused "[::ffff:127.0.0.1]" "$EP" "a private, loopback" "a mapped IPv6 loopback is refused"
refused 93.184.216.34 443 "an IP address not on the allow list" "a public IP literal not listed is refused"
refused a.wild.test "$EP" "resolves to 127.0.0.1" "a wildcard name resolving to loopback is refused"
refused ported.test "$EP" "not on the allow list" "a host allowed on another port is refused"
is "$(sb python3 "$CLIENT" socks denied.test "$EP")" "socks failed reply code 2" \
    "SOCKS5: a denied host gets 'not allowed by ruleset'"
if [ $HAVE_CURL = 1 ]; then
	sb curl -sS -m 10 "http://denied.test:$HP/hello" > "$T/curl" 2>&1
	grep -q "ptyvisor: denied.test:$HP: refused: on the deny list" "$T/curl"
	ok $? "curl shows the proxy's reason ($(head -1 "$T/curl"))"
fi

# The log: one line per connection, with the decision and bytes.
python3 - "$LOG" "$EP" > "$T/logcheck" <<'EOF'
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
ep = int(sys.argv[2])
allowed = [l for l in lines if l["decision"] == "allow" and
           l["host"] == "allowed.test" and l["port"] == ep]
denied = [l for l in lines if l["decision"] == "deny" and
          l["host"] == "denied.test"]
echo = [l for l in allowed if l["sent"] == 19 and l["received"] == 19]
bulk = [l for l in allowed if l["sent"] == 8000000 and
        l["received"] == 8000000]
ok = len(echo) + len(bulk) == len(allowed) and len(bulk) == 1
print("%d lines, %d allowed echo, %d denied, bytes %s" % (len(lines),
      len(echo), len(denied), "right" if ok else "wrong"))
EOF
grep -q '^[0-9]* lines, [1-9][0-9]* allowed echo, [1-9][0-9]* denied, bytes right$' "$T/logcheck"
ok $? "every connection logged with its decision and bytes ($(cat "$T/logcheck"))"
# The half-closed one: its request line and 6 MB up, the digest line and
# 48 MB down, to the byte.
python3 - "$LOG" "$DP" > "$T/logcheck2" <<'EOF'
import json, sys
dp = int(sys.argv[2])
print(" ".join("%d/%d" % (l["sent"], l["received"]) for l in
               map(json.loads, open(sys.argv[1]))
               if l["host"] == "allowed.test" and l["port"] == dp))
EOF
is "$(cat "$T/logcheck2")" "6000009/48000065" "the half-closed connection's bytes each way, exact"

# A session (run): the connections next to its recording, and in show.
mkdir -p "$T/state"
PTYVISOR_STATE_DIR="$T/state" "$PTYVISOR" run --network-allow allowed.test \
    -- sh -c "python3 '$CLIENT' connect allowed.test $EP;
    python3 '$CLIENT' connect other.test $EP" < /dev/null > "$T/run.out" 2>&1
grep -q '^connect ok ping-through-proxy' "$T/run.out"
ok $? "run: an allowed host reached from a session"
PTYVISOR_STATE_DIR="$T/state" "$PTYVISOR" show 1 > "$T/show" 2>&1
grep -q "^  allow allowed.test:$EP via 127.0.0.1, sent 19, received 19: on the allow list (allowed.test)$" "$T/show"
ok $? "show: the allowed connection with its bytes"
grep -q "^  deny  other.test:$EP via -, sent 0, received 0: not on the allow list" "$T/show"
ok $? "show: the refused one with the reason"
test -f "$T/state/sessions/1.net.jsonl"
ok $? "the log lies next to the recording"

# The settings file's lists; --no-network drops them.
mkdir -p "$T/config/ptyvisor"
printf '[sandbox]\nnetwork_allow = allowed.test\nnetwork_deny = denied.test\n' \
    > "$T/config/ptyvisor/config"
is "$("$PTYVISOR" sandbox -- python3 "$CLIENT" connect allowed.test "$EP")" \
    "connect ok ping-through-proxy" "[sandbox] network_allow lets a host through"
"$PTYVISOR" sandbox -- python3 "$CLIENT" connect denied.test "$EP" > "$T/out"
grep -q "403 .*on the deny list" "$T/out"
ok $? "[sandbox] network_deny refuses one ($(cat "$T/out"))"
"$PTYVISOR" sandbox --no-network -- python3 "$CLIENT" connect allowed.test \
    "$EP" > "$T/out"
grep -q "^connect failed" "$T/out" && ! grep -q "403" "$T/out"
ok $? "--no-network: no proxy at all ($(cat "$T/out"))"
rm "$T/config/ptyvisor/config"

# run and sandbox read the rules file as the server does: its connect
# rules judge a host on neither list, a deny winning; with no server to
# ask, any other host is refused at once, with how to allow it.  (The
# address entry lets a name a rule allows reach the test's loopback.)
RF="$T/config/ptyvisor/rules"
printf 'allow connect ruled.test:%s\nallow connect both.test:%s\ndeny connect both.test:*\n' \
    "$EP" "$EP" > "$RF"
lo() {	# lo CMD...: under the sandbox, the test's loopback reachable
	timeout 60 "$PTYVISOR" sandbox "$@"
}
is "$(lo --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect ruled.test "$EP")" "connect ok ping-through-proxy" \
    "sandbox: a host an 'allow connect' rule of the rules file names is reached"
lo --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect both.test "$EP" > "$T/out" 2>&1
grep -q "^connect failed HTTP/1.1 403 .*denied by rule 'deny connect both.test:\\*' ($RF:3)" "$T/out"
ok $? "... one a 'deny connect' rule names is refused, the deny winning ($(cut -c1-160 "$T/out"))"
lo --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect unknown.test "$EP" > "$T/out" 2>&1
grep -q "^connect failed HTTP/1.1 403 .*not on the allow list, and no server to ask .*; allow it with --network-allow unknown.test:$EP, or the rule 'allow connect unknown.test:$EP' in $RF" "$T/out"
ok $? "... one no rule decides is refused at once, the reason naming both ways to allow it"
lo --network-allow allowed.test --explain > "$T/explain" 2>&1
grep -q "judged by the rules file's connect rules ($RF:" "$T/explain" &&
    grep -q "asked of a person through the server on $T/no-server.sock" "$T/explain"
ok $? "--explain names the rules file and the server asked"
PTYVISOR_STATE_DIR="$T/state" timeout 60 "$PTYVISOR" run \
    --network-allow "allowed.test,127.0.0.1:$EP" -- sh -c "
    python3 '$CLIENT' connect ruled.test $EP;
    python3 '$CLIENT' connect both.test $EP" < /dev/null > "$T/run.out" 2>&1
head -1 "$T/run.out" | grep -q '^connect ok ping-through-proxy' &&
    sed -n 2p "$T/run.out" | grep -q "403 .*denied by rule 'deny connect both.test"
ok $? "run: the same rules, the allowed host reached and the denied refused"
id=$(PTYVISOR_STATE_DIR="$T/state" "$PTYVISOR" history --json | tail -1 |
    sed 's/^{"id":\([0-9]*\),.*/\1/')
PTYVISOR_STATE_DIR="$T/state" "$PTYVISOR" show "$id" > "$T/show" 2>&1
grep -q "^  allow ruled.test:$EP via 127.0.0.1, sent 19, received 19: allowed by rule 'allow connect ruled.test:$EP' ($RF:1)$" "$T/show"
ok $? "... show names the rule that let it through"
printf 'deny connect ruled.test:*\n' > "$T/other-rules"
lo --rules "$T/other-rules" --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect ruled.test "$EP" > "$T/out" 2>&1
grep -q "403 .*denied by rule 'deny connect ruled.test:\\*' ($T/other-rules:1)" "$T/out"
ok $? "--rules chooses the file ($(cut -c1-140 "$T/out"))"
printf '[approval]\nrules = %s\n' "$T/other-rules" > "$T/config/ptyvisor/config"
lo --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect ruled.test "$EP" > "$T/out" 2>&1
grep -q "403 .*denied by rule 'deny connect ruled.test:\\*' ($T/other-rules:1)" "$T/out"
ok $? "... and so does the settings file's [approval] rules"
rm "$T/config/ptyvisor/config"
printf 'allow connect ruled.test:1\nallow-ish connect x.test:1\n' > "$T/bad-rules"
for c in sandbox run; do
	"$PTYVISOR" $c --rules "$T/bad-rules" --network-allow allowed.test \
	    -- true < /dev/null 2> "$T/err"
	r=$?
	grep -q "^ptyvisor $c: $T/bad-rules:2: " "$T/err"
	ok $(( $? + r - 125 )) "$c: a rules file that does not parse: exit 125, file:line ($(cat "$T/err"))"
done
"$PTYVISOR" sandbox --rules "$T/missing-rules" --network-allow allowed.test \
    -- true 2> "$T/err"
r=$?
grep -q "^ptyvisor sandbox: rules file $T/missing-rules: No such file" "$T/err"
ok $(( $? + r - 125 )) "a rules file named but missing: exit 125 ($(cat "$T/err"))"
rm "$RF"

# An agent's request names hosts: asked even where a rule allows the
# command, pending shows them, approved it reaches them.
. "$top_srcdir/tests/e2e/serve-lib.sh"
pv_serve_setup
pv_serve || { echo "Bail out! serve did not start"; exit 1; }
"$PTYVISOR" exec --network-allow allowed.test --why fetch -- \
    sh -c "python3 '$CLIENT' connect allowed.test $EP" > "$T/exec.out" 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '"$PTYVISOR" pending | grep -q "hosts: allowed.test"' 15
ok $? "a request naming hosts is asked, its hosts shown by pending"
"$PTYVISOR" pending --json | grep -q '"network_allow":"allowed.test"'
ok $? "pending --json has network_allow"
id=$("$PTYVISOR" pending | awk -F '\t' '/hosts: allowed.test/ { print $1; exit }')
"$PTYVISOR" approve "$id"
wait $EX
is "$?" 0 "approved, the agent's command exits 0"
is "$(cat "$T/exec.out")" "connect ok ping-through-proxy" \
    "... having reached the host it named"
# A host on neither list, from an agent's command: asked like a command,
# approved from the shell, reached; asked once for the session.  (The
# address entry lets an approved name reach the test's loopback server.)
pending_of() { "$PTYVISOR" pending | awk -F '\t' -v c="$1" '$2 == c { print $1; exit }'; }
"$PTYVISOR" exec --network-allow "allowed.test,127.0.0.1:$EP" -- \
    sh -c "python3 '$CLIENT' connect other.test $EP;
    python3 '$CLIENT' connect other.test $EP" > "$T/ask.out" 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '"$PTYVISOR" pending | grep -q "hosts: allowed.test,127"' 15
"$PTYVISOR" approve "$("$PTYVISOR" pending | awk -F '\t' '/hosts: allowed.test,127/ { print $1; exit }')"
wait_for '[ -n "$(pending_of "connect other.test:$EP")" ]' 15
ok $? "a host on neither list waits as a request: pending shows connect other.test:$EP"
"$PTYVISOR" pending | grep "connect other.test:$EP" | grep -q "a sandboxed command connects to a host on neither list"
ok $? "... with the proxy's reason"
"$PTYVISOR" approve "$(pending_of "connect other.test:$EP")"
wait $EX
is "$?" 0 "approved, the command goes on"
is "$(cat "$T/ask.out")" "connect ok ping-through-proxy
connect ok ping-through-proxy" "... and reaches the host, twice, asked once"

# Two connections at once to one unknown host: one question.  (The
# background one's output goes to a file of its own: network-nobody.sh runs
# this same script beside us, in a sandbox sharing /tmp, where $$ is the
# same small number.)
"$PTYVISOR" exec --network-allow "allowed.test,127.0.0.1:$EP" -- \
    sh -c "a=\$(mktemp) || exit 1
    python3 '$CLIENT' connect twice.test $EP > \"\$a\" &
    python3 '$CLIENT' connect twice.test $EP; wait; cat \"\$a\"
    rm -f \"\$a\"" > "$T/ask.out" 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '"$PTYVISOR" pending | grep -q "hosts: allowed.test,127"' 15
"$PTYVISOR" approve "$("$PTYVISOR" pending | awk -F '\t' '/hosts: allowed.test,127/ { print $1; exit }')"
wait_for '[ -n "$(pending_of "connect twice.test:$EP")" ]' 15
"$PTYVISOR" approve "$(pending_of "connect twice.test:$EP")"
wait $EX
is "$(cat "$T/ask.out")" "connect ok ping-through-proxy
connect ok ping-through-proxy" "two connections waiting for one host: one approval lets both through"

"$PTYVISOR" exec --network-allow allowed.test -- \
    python3 "$CLIENT" connect asked.test "$EP" > "$T/ask.out" 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '"$PTYVISOR" pending | grep -q "hosts: allowed.test$"' 15
"$PTYVISOR" approve "$("$PTYVISOR" pending | awk -F '\t' '/hosts: allowed.test$/ { print $1; exit }')"
wait_for '[ -n "$(pending_of "connect asked.test:$EP")" ]' 15
"$PTYVISOR" deny "$(pending_of "connect asked.test:$EP")" --reason "not that one"
wait $EX
grep -q "^connect failed HTTP/1.1 403 .*denied by user (not that one)" "$T/ask.out"
ok $? "denied from the shell: 403 with the person's reason ($(cut -c1-160 "$T/ask.out"))"

# exec_hosts SCRIPT: an agent's sh -c SCRIPT naming the test's hosts (its
# own request approved from the shell), output in $T/ask.out, pid in $EX.
exec_hosts() {
	"$PTYVISOR" exec --network-allow "allowed.test,127.0.0.1:$EP" -- \
	    sh -c "$1" > "$T/ask.out" 2>&1 &
	EX=$!
	cleanup_pid $EX
	wait_for '"$PTYVISOR" pending | grep -q "hosts: allowed.test,127"' 15
	"$PTYVISOR" approve "$("$PTYVISOR" pending | awk -F '\t' '/hosts: allowed.test,127/ { print $1; exit }')"
}

# Allow once: that connection only, the next one is asked again.
exec_hosts "python3 '$CLIENT' connect once.test $EP;
    python3 '$CLIENT' connect once.test $EP"
wait_for '[ -n "$(pending_of "connect once.test:$EP")" ]' 15
id1=$(pending_of "connect once.test:$EP")
"$PTYVISOR" pending | grep "connect once.test:$EP" | grep -q "approve --once (this connection), approve (the session), approve --remember (a rule), deny"
ok $? "pending names a host's four answers"
"$PTYVISOR" pending --json | grep "once.test" | grep -q '"connect":true'
ok $? "... and pending --json marks it connect"
"$PTYVISOR" approve --once "$id1"
is "$?" 0 "approve --once"
wait_for 'id2=$(pending_of "connect once.test:$EP"); [ -n "$id2" ] && [ "$id2" != "$id1" ]' 15
ok $? "... the next connection to that host is asked again"
"$PTYVISOR" deny "$(pending_of "connect once.test:$EP")" --reason "just once"
wait $EX
head -1 "$T/ask.out" | grep -q "^connect ok ping-through-proxy"
ok $? "... the approved connection went through"
sed -n 2p "$T/ask.out" | grep -q "^connect failed HTTP/1.1 403 .*just once"
ok $? "... the next one was denied with the reason ($(sed -n 2p "$T/ask.out" | cut -c1-120))"
# The session's history line sums up its connections; show prints it.
"$PTYVISOR" history --json | grep 'once.test' | grep '"network"' > "$T/hist"
grep -q '"network":{"connections":2,"allowed":1,"denied":1,"asked":2,"sent":[1-9][0-9]*,"received":[1-9][0-9]*}' "$T/hist"
ok $? "history --json: the session's connections summed ($(grep -o '"network":{[^}]*}' "$T/hist"))"
"$PTYVISOR" show "$(sed 's/^{"id":\([0-9]*\),.*/\1/' "$T/hist")" > "$T/show"
grep -q '^connections: 2: 1 allowed, 1 denied, 2 asked; sent [1-9][0-9]*, received [1-9][0-9]* bytes$' "$T/show"
ok $? "show: the same summary ($(grep '^connections:' "$T/show"))"
"$PTYVISOR" approve --once --remember 1 2> "$T/err"
is "$?" 125 "--once and --remember together are refused ($(cat "$T/err"))"

# Remember: the rule saved to the rules file, later sandboxes unasked.
RULES="$T/config/rules"
cp "$RULES" "$T/rules.before"
exec_hosts "python3 '$CLIENT' connect remember.test $EP"
wait_for '[ -n "$(pending_of "connect remember.test:$EP")" ]' 15
"$PTYVISOR" approve --remember "$(pending_of "connect remember.test:$EP")"
is "$?" 0 "approve --remember a host"
wait $EX
is "$(cat "$T/ask.out")" "connect ok ping-through-proxy" "... reached"
is "$(diff "$T/rules.before" "$RULES" | grep '^>')" \
    "> allow connect remember.test:$EP" "... its rule, and only it, appended to the rules file"
exec_hosts "python3 '$CLIENT' connect remember.test $EP"
wait_for 'test -s "$T/ask.out"' 20
ok $? "a later sandbox: the command ends without anyone asked"
is "$(cat "$T/ask.out")" "connect ok ping-through-proxy" "... and reaches the remembered host"
wait $EX
grep "remember.test" "$T/serve.log" | grep -q "approved by rule 'allow connect remember.test:$EP'"
ok $? "... approved by the rule (the server's log)"

# run and sandbox read the rules file the server wrote: the remembered
# host is reached without asking; a host no rule decides is asked of the
# server running on the control socket.
is "$(timeout 60 "$PTYVISOR" sandbox --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect remember.test "$EP")" "connect ok ping-through-proxy" \
    "sandbox: the host remembered through the server is reached unasked"
"$PTYVISOR" sandbox --network-allow "allowed.test,127.0.0.1:$EP" -- \
    python3 "$CLIENT" connect sbask.test "$EP" > "$T/sbask.out" 2>&1 &
EX=$!
cleanup_pid $EX
wait_for '[ -n "$(pending_of "connect sbask.test:$EP")" ]' 15
ok $? "sandbox: a host no rule decides is asked of the server on the socket"
"$PTYVISOR" approve "$(pending_of "connect sbask.test:$EP")"
wait $EX
is "$(cat "$T/sbask.out")" "connect ok ping-through-proxy" "... approved, it is reached"

# A rules file that cannot be written (a directory in its place): the
# host approved all the same, approve --remember exits 2 saying why.
mv "$RULES" "$T/rules.saved" && mkdir "$RULES"
exec_hosts "python3 '$CLIENT' connect unsaved.test $EP"
wait_for '[ -n "$(pending_of "connect unsaved.test:$EP")" ]' 15
"$PTYVISOR" approve --remember "$(pending_of "connect unsaved.test:$EP")" 2> "$T/err"
is "$?" 2 "approve --remember: the rule cannot be written, exit 2"
grep -q "^ptyvisor approve: request [0-9]* approved, but its rule is not saved: .*$RULES.*directory" "$T/err"
ok $? "... the reason on stderr ($(cat "$T/err"))"
wait $EX
is "$(cat "$T/ask.out")" "connect ok ping-through-proxy" "... the host approved all the same"
rmdir "$RULES" && mv "$T/rules.saved" "$RULES"

# A host that is no plain name is never written to the rules file, and a
# crafted one never reaches the queue.
cp "$RULES" "$T/rules.before"
python3 - "$PTYVISOR_SOCKET" > "$T/raw.out" 2>&1 <<'PY' &
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(30)
s.connect(sys.argv[1])
f = s.makefile("rwb", buffering=0)
def send(o):
    f.write((json.dumps(o) + "\n").encode())
send({"op": "hello", "version": 1})
send({"op": "connect", "id": "x", "host": "evil.test\n[approval]\nmode = never", "port": 443})
send({"op": "connect", "id": "1", "host": "::1", "port": 443})
for line in f:
    ev = json.loads(line)
    print(ev.get("event"), ev.get("id"), ev.get("code", ""))
    if ev.get("id") == "1" and ev.get("event") in ("approved", "denied"):
        break
PY
RAW=$!
cleanup_pid $RAW
V6="connect '[::1]:443'"
wait_for '[ -n "$(pending_of "$V6")" ]' 15
ok $? "an address asked for is queued"
"$PTYVISOR" approve --remember "$(pending_of "$V6")" 2> "$T/err"
is "$?" 1 "... but not remembered ($(cat "$T/err"))"
"$PTYVISOR" deny "$(pending_of "$V6")"
wait $RAW
grep -q "^error x bad-value" "$T/raw.out"
ok $? "a host name with newlines is refused by the protocol"
cmp -s "$T/rules.before" "$RULES"
ok $? "... and the rules file is unchanged"

"$PTYVISOR" exec --network-allow 'bad..host' -- true 2> "$T/err"
is "$?" 125 "exec refuses a bad host list ($(cat "$T/err"))"
kill "$SERVE"
unset PTYVISOR_STATE_DIR PTYVISOR_CONFIG
export PTYVISOR_SOCKET="$T/no-server.sock"

# The command's status passes through; the proxy does not outlive it.
sb sh -c 'exit 7'
is "$?" 7 "the command's exit status"

# Refused before anything runs.
"$PTYVISOR" sandbox --sandbox=none --network-allow allowed.test -- true \
    2> "$T/err"
is "$?" 125 "no host list without the sandbox"
grep -q 'needs the sandbox' "$T/err"
ok $? "... with the reason ($(cat "$T/err"))"
"$PTYVISOR" sandbox --network-allow 'bad..name' -- true 2> "$T/err"
is "$?" 125 "a bad host pattern is refused"
grep -q "bad host pattern 'bad..name'" "$T/err"
ok $? "... naming it ($(cat "$T/err"))"

"$PTYVISOR" sandbox --network-allow allowed.test --network-log \
    "$T/nodir/log" -- true 2> "$T/err"
is "$?" 125 "a log that cannot be written: the command does not run"
grep -q "network log: $T/nodir/log: No such file or directory" "$T/err"
ok $? "... with the reason ($(cat "$T/err"))"

# Without namespaces: fail closed, even with --allow-no-namespaces.
if command -v unshare > /dev/null && nons true 2> /dev/null; then
	nons "$PTYVISOR" sandbox --allow-no-namespaces --network-allow \
	    allowed.test -- true 2> "$T/err"
	is "$?" 125 "without namespaces a filtered network does not run"
	grep -q 'a host allow-list needs a network namespace' "$T/err"
	ok $? "... with the reason ($(cat "$T/err"))"
else
	skip "cannot make a user namespace without namespaces here"
fi

done_testing
