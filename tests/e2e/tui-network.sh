#!/bin/sh
# A host question answered in the console, end to end: an agent's command
# in a filtered network connects through the proxy to a host on neither
# list (a listener of the test's own on 127.0.0.1, its names mapped by
# PTYVISOR_TEST_HOSTS); the console announces the question, the prompt
# shows the host, and each answer is checked for its effect: o lets that
# connection through and the next is asked again, y lets the host through
# for the rest of the sandbox, a writes its rule to the rules file (later
# sandboxes, ptyvisor sandbox's too, reach it unasked), n with a reason
# refuses the connection with the proxy's error.
. "$top_srcdir/tests/e2e/tui-lib.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

T=$pv_dir
CLIENT="$top_srcdir/tests/sandbox/netclient.py"
net_upstream "$T"
printf '127.0.0.1 once.test session.test remember.test\n' > "$T/hosts"
mkdir -p "$T/config"
RULES="$T/config/rules"
printf '# the test'"'"'s rules\n' > "$RULES"
printf '[tui]\nprefix = C-b\n' > "$T/config/config"
sock="$T/run/pv.sock"

pv_start 160 48
ag_start "$sock"
ag_run "cd '$T'; export PTYVISOR_CONFIG='$T/config' PTYVISOR_TEST_HOSTS='$T/hosts'"
# The agents' proxies are the console's children: the names are its to map.
pv_type "PTYVISOR_SOCKET='$sock' PTYVISOR_CONFIG='$T/config' PTYVISOR_TEST_HOSTS='$T/hosts' SHELL=$pv_dir/pvsh $PTYVISOR"
pv_keys Enter
pv_see 'pv$'; ok $? "the console starts with a shell"
wait_for "[ -S '$sock' ]" 10; ok $? "the console listens on the control socket"

# prompt N: once the status line announces request #N, open the prompt.
prompt() {
	pv_see "PENDING: #$1 " 20 || return 1
	pv_keys C-b a
	pv_see "approve request #$1?"
}
# answer KEY PATTERN: press KEY in the prompt until PATTERN (grep -E)
# shows; a deciding key within the prompt's first half second is refused
# with "has just appeared", and pressed again.
answer() {
	_i=0 _pat=$2
	while [ $_i -lt 5 ]; do
		pv_keys "$1"
		wait_for 'pv_cap | grep -qE -- "$_pat"' 5 && return 0
		pv_cap | grep -q "has just appeared" || return 1
		_i=$((_i + 1))
	done
	return 1
}
# agent N SCRIPT: the agent's sh -c SCRIPT with the test's loopback
# reachable by an approved name, its output in $T/N.out; its own request
# (it asks for hosts, so it is asked) approved with y as request #$req.
req=0
# host_asked NAME: the next request is the proxy's question for NAME, and
# the prompt opens on it.
host_asked() {
	req=$((req + 1))
	prompt $req && pv_cap | grep -qF "connect $1:$EP"
}
agent() {
	ag_run "$PTYVISOR exec --network-allow 127.0.0.1:$EP -- sh -c \"$2\" > '$T/$1.out' 2>&1; echo rc-$1=\$?"
	req=$((req + 1))
	prompt $req && answer y "approved #$req|PENDING: #$((req + 1)) "
}

# o: this connection only; the next one to the host is asked again, and
# n with a reason refuses it with the proxy's error.
agent once "python3 $CLIENT connect once.test $EP; python3 $CLIENT connect once.test $EP"
ok $? "the agent's request naming hosts is approved with y"
host_asked once.test
ok $? "a connection to a host on neither list is announced, and the prompt shows the host and port"
pv_cap > "$T/cap-once"
grep -qF "o allow this connection  y allow for the session  a remember (rules file)  n deny" "$T/cap-once"
ok $? "... and a host's four answers"
[ ! -s "$T/once.out" ]; ok $? "the connection waits for the answer"
answer o "approved #$req for this connection|PENDING: #$((req + 1)) "
ok $? "o approves this connection"
host_asked once.test
ok $? "o: the next connection to the host is asked again (request #$req)"
answer n "Enter deny"; ok $? "n asks for a reason"
pv_type "just once"
pv_keys Enter
ag_see "rc-once=0" 30; ok $? "the agent's command ends"
head -1 "$T/once.out" | grep -q "^connect ok ping-through-proxy$"
ok $? "o: the approved connection reached the listener ($(head -1 "$T/once.out"))"
sed -n 2p "$T/once.out" | grep -q "^connect failed HTTP/1.1 403 .*ptyvisor: once.test:$EP: refused: denied by user (console 1.*(just once)"
ok $? "n: the next failed with the proxy's error and the reason ($(sed -n 2p "$T/once.out" | cut -c1-140))"

# y: the host for the rest of the sandbox's life, asked once.
agent session "python3 $CLIENT connect session.test $EP; python3 $CLIENT connect session.test $EP"
ok $? "a second agent's request is approved"
host_asked session.test
ok $? "its host is asked"
answer y "approved #$req for this sandbox's session|rc-session="
ok $? "y approves it for the session"
ag_see "rc-session=0" 30
is "$(cat "$T/session.out")" "connect ok ping-through-proxy
connect ok ping-through-proxy" "y: both connections reached the listener"
is "$(grep -c "connect session.test:$EP" "$T/state/ptyvisor.log" |
    tr -d ' ')" 2 "... the host asked once (queued and approved in the log)"
pv_cap | grep -q "PENDING"; ok $(( ! $? )) "... and nothing waits"

# a: the rule, shown once more, then written to the rules file.
agent remember "python3 $CLIENT connect remember.test $EP"
ok $? "a third agent's request is approved"
host_asked remember.test
ok $? "its host is asked"
answer a "y allow and save this rule"
ok $? "a shows the rule to be saved"
pv_cap | grep -qF "allow connect remember.test:$EP"
ok $? "... allow connect remember.test:$EP"
grep -q remember.test "$RULES"; ok $(( ! $? )) "... and writes nothing yet"
answer y "approved #$req, remembered and saved|rc-remember="
ok $? "y saves it"
ag_see "rc-remember=0" 30
is "$(cat "$T/remember.out")" "connect ok ping-through-proxy" "a: the connection reached the listener"
is "$(grep -v '^#' "$RULES")" "allow connect remember.test:$EP" \
    "a: the rule, and only it, is in the rules file"
agent later "python3 $CLIENT connect remember.test $EP"
ok $? "a later agent's request is approved"
ag_see "rc-later=0" 30
is "$(cat "$T/later.out")" "connect ok ping-through-proxy" \
    "a: a later sandbox reaches the host"
pv_cap | grep -q "PENDING"; ok $(( ! $? )) "... without a question"
ag_run "timeout 60 $PTYVISOR sandbox --network-allow 127.0.0.1:$EP -- python3 $CLIENT connect remember.test $EP > '$T/sb.out' 2>&1; echo rc-sb=\$?"
ag_see "rc-sb=0" 70
is "$(cat "$T/sb.out")" "connect ok ping-through-proxy" \
    "a: ptyvisor sandbox reads the same rules file and reaches it unasked"

done_testing
