#!/bin/sh
# Secret variables and agents' commands, end to end on a real serve: those
# an agent's environment carries are dropped quietly (each word of the
# patterns, providers' names in any case), named in the prompt's pending
# list and the history; sockets, session plumbing and plain variables kept;
# [sandbox] pass_env passes a name anyway; one named on purpose (exec -e)
# is asked even where a rule allows the command.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
pv_serve_setup
printf 'allow env\nallow echo **\n' > "$T/config/rules"
printf '[sandbox]\npass_env = PV_PASSED_TOKEN\n' > "$T/config/config"
pv_serve

# The variables an agent's environment carries: NAME=VALUE, dropped or kept.
DROPPED="MY_API_KEY a_secret_x SOME_TOKEN DB_PASSWORD LDAP_PASSWD \
MY_CREDENTIALS Mysql_Pwd OpenAI_Api_Key"
KEPT="PV_PLAIN SSH_AUTH_SOCK DBUS_SESSION_BUS_ADDRESS XDG_SESSION_ID \
KEYTIMEOUT PV_PASSED_TOKEN"
agent_env() {
	for v in $DROPPED $KEPT; do
		printf '%s=value-of-%s\n' "$v" "$v"
	done
}
# agent CMD...: CMD with the agent's environment on top of ours.
agent() {
	# shellcheck disable=SC2046
	env $(agent_env) "$@"
}

agent timeout 30 $PTYVISOR exec -- env < /dev/null | tr -d '\r' > "$T/env"
grep -q '^PATH=' "$T/env"; ok $? "exec -- env ran (it printed PATH)"
for v in $DROPPED; do
	! grep -q "^$v=" "$T/env"; ok $? "dropped: $v is not in the command's environment"
	! grep -q "value-of-$v" "$T/env"; ok $? "dropped: nor its value"
done
for v in $KEPT; do
	grep -qx "$v=value-of-$v" "$T/env"; ok $? "kept: $v reaches the command"
done
$PTYVISOR sandbox --explain > "$T/explain" 2>&1
grep -q 'passed anyway (\[sandbox\] pass_env): PV_PASSED_TOKEN$' "$T/explain"
ok $? "sandbox --explain names the variable passed anyway"

# An asked request: pending names what was dropped (names only), the
# history entry of its session too.
agent timeout 30 $PTYVISOR exec --why secrets -- printf 'ran\n' \
    > "$T/asked.out" 2> "$T/asked.err" < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '$PTYVISOR pending | grep -q "printf"' 10; ok $? "printf is asked"
$PTYVISOR pending --json > "$T/pending.json"
python3 - "$T/pending.json" $DROPPED <<'EOF'
import json, sys
p = [json.loads(l) for l in open(sys.argv[1])]
assert len(p) == 1, p
assert p[0]["env_dropped"] == sys.argv[2:], p[0]
assert "value-of" not in open(sys.argv[1]).read()
EOF
ok $? "pending --json: env_dropped lists every dropped name, in order, no value"
$PTYVISOR pending > "$T/pending.txt"
grep -q "	env dropped: MY_API_KEY a_secret_x .*OpenAI_Api_Key" "$T/pending.txt"
ok $? "pending: the names on the request's line"
! grep -Eq "PV_PLAIN|SSH_AUTH_SOCK|PV_PASSED_TOKEN|KEYTIMEOUT" "$T/pending.txt"
ok $? "pending: kept and passed names are not listed"
id=$($PTYVISOR pending | awk -F '\t' '/printf/ { print $1; exit }')
$PTYVISOR approve "$id"
wait $SHIM
is "$?" 0 "approved, it runs"
is "$(tr -d '\r' < "$T/asked.out")" "ran" "and prints"
tail -n 1 "$T/state/history.jsonl" > "$T/last.json"
python3 - "$T/last.json" $DROPPED <<'EOF'
import json, sys
e = json.load(open(sys.argv[1]))
assert e["argv"][0] == "printf" and e["id"] > 0, e
assert e["env_dropped"] == sys.argv[2:], e
EOF
ok $? "history: the session's line lists the dropped names"
sid=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["id"])' \
    "$T/last.json")
$PTYVISOR show "$sid" > "$T/show" 2>&1
grep -q '^dropped:   MY_API_KEY a_secret_x .*OpenAI_Api_Key' "$T/show"
ok $? "show: the dropped names"

# Nothing to drop: no field at all.
timeout 30 env -i PATH="$PATH" PTYVISOR_SOCKET="$PTYVISOR_SOCKET" \
    $PTYVISOR exec -- echo clean > /dev/null < /dev/null
tail -n 1 "$T/state/history.jsonl" | grep -q env_dropped
is "$?" 1 "history: no env_dropped when nothing was dropped"

# Named on purpose: asked, even though a rule allows echo.
out=$(timeout 30 $PTYVISOR exec -- echo unasked < /dev/null | tr -d '\r')
is "$out" "unasked" "the rule runs echo unasked"
timeout 30 $PTYVISOR exec -e OpenAI_Api_Key=x -- echo named \
    > "$T/named.out" 2> "$T/named.err" < /dev/null &
SHIM=$!
cleanup_pid $SHIM
wait_for '$PTYVISOR pending | grep -q "echo named"' 10
ok $? "exec -e OpenAI_Api_Key=x with an allow rule: asked"
$PTYVISOR pending --json | python3 -c 'import json, sys
p = [json.loads(l) for l in sys.stdin]
assert [x["by"] for x in p] == ["passes a secret variable OpenAI_Api_Key"], p'
ok $? "the prompt says which secret it passes"
id=$($PTYVISOR pending | awk -F '\t' '/echo named/ { print $1; exit }')
$PTYVISOR deny "$id"
wait $SHIM
is "$?" 126 "denied: 126"

done_testing
