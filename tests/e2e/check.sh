#!/bin/sh
# ptyvisor check: the verdict, what decided it and each part of a shell
# string, as text and JSON; the exit status is the verdict; nothing runs.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/none.sock" HOME="$T/home"
mkdir -p "$T/config" "$T/home" "$T/w"
cat > "$T/config/rules" <<'RULES'
deny  rm -rf **
allow make test
RULES
C="timeout 10 $PTYVISOR check"

out=$($C ls -la)
is "$?" 0 "ls -la: exit 0 (allow)"
is "$out" "$(printf 'allow: ls -la\n  known read-only command')" \
    "... and says why"
out=$($C make test)
is "$?" 0 "a rule allows: exit 0"
printf '%s\n' "$out" | grep -qF "rule 'allow make test' ($T/config/rules:2)"
ok $? "... naming the rule and its file:line"
$C rm -rf x > "$T/o"
is "$?" 2 "a deny rule: exit 2"
grep -qF "rule 'deny  rm -rf **' ($T/config/rules:1)" "$T/o"
ok $? "... naming it"
$C python3 -c 1 > "$T/o"
is "$?" 1 "not on the list: exit 1 (ask)"
grep -qF "mode untrusted: not a known read-only command" "$T/o"
ok $? "... because of the mode"

# Options that run programs: asked, with the option named.
$C rg --hostname-bin=/tmp/x y > "$T/o"
is "$?" 1 "rg --hostname-bin=PROG: ask"
grep -qF "rg --hostname-bin runs a program" "$T/o"; ok $? "... naming it"
$C -- find . -delete > "$T/o"
is "$?" 1 "-- then the command: find -delete asked"

# A shell string: each command's verdict.
$C -c 'ls && rm -rf / ; make test; echo $(id)' > "$T/o"
is "$?" 2 "-c: the strongest part decides (deny)"
grep -q "^  1\. allow: ls$" "$T/o" && grep -q "^  2\. deny: rm -rf /$" "$T/o" &&
    grep -q "^  3\. allow: make test$" "$T/o" &&
    grep -q "^     command substitution" "$T/o"
ok $? "-c: each command, its verdict and why"
$C bash -lc 'ls | head' > "$T/o"
is "$?" 0 "bash -lc 'ls | head': allow"
grep -q "^  2\. allow: head$" "$T/o"; ok $? "... both parts listed"
$C -c 'GIT_PAGER=x git log' > "$T/o"
is "$?" 1 "an assignment in a shell string: ask"
grep -q "assignment" "$T/o"; ok $? "... saying so"

# --json.
$C --json -c 'ls | rg --pre x y' > "$T/j"
is "$?" 1 "--json: the same exit status"
python3 - "$T/j" <<'EOF'
import json, sys
o = json.load(open(sys.argv[1]))
assert o["decision"] == "ask" and o["source"] == "mode", o
assert o["argv"] == ["sh", "-c", "ls | rg --pre x y"], o
assert o["mode"] == "untrusted", o
p = o["parts"]
assert [x["decision"] for x in p] == ["allow", "ask"], p
assert p[0]["source"] == "known-read-only", p
assert "rg --pre runs a program" in p[1]["why"], p
EOF
ok $? "--json: decision, source, mode, argv, each part"
$C --json rm -rf x > "$T/j"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["rule"]=="deny  rm -rf **" and o["where"].endswith("rules:1") and "parts" not in o' "$T/j"
ok $? "--json: rule and where for a rule's verdict, no parts"

# What the request itself asks: allowed becomes asked, as the server does.
$C -e LD_PRELOAD=/tmp/x.so ls > "$T/o"
is "$?" 1 "-e NAME=VALUE: ls asked"
grep -q "environment variables set (the policy alone: allow" "$T/o"
ok $? "... saying why, and what the policy alone said"
$C --network ls > "$T/o"
is "$?" 1 "--network: asked"
grep -q "network requested" "$T/o"; ok $? "... saying why"
$C --network-allow pypi.org ls > "$T/o"
is "$?" 1 "--network-allow: asked"
grep -q "network requested" "$T/o"; ok $? "... saying why"
$C --network-allow 'bad..host' ls 2> "$T/o"
is "$?" 125 "--network-allow with a bad pattern: an error"
grep -q "bad host pattern 'bad..host'" "$T/o"; ok $? "... naming it"
$C --sandbox none ls > "$T/o"
is "$?" 1 "--sandbox none: asked"
grep -q "no sandbox requested" "$T/o"; ok $? "... saying why"
$C --sandbox read-only ls > /dev/null
is "$?" 0 "--sandbox read-only: still allowed"
$C --json -e X=1 ls > "$T/j"
python3 -c 'import json,sys; o=json.load(open(sys.argv[1])); assert o["decision"]=="ask" and o["raised"]=="environment variables set" and o["source"]=="known-read-only"' "$T/j"
ok $? "--json: decision ask, raised, the policy's own source"
$C -e X=1 rm -rf x > /dev/null
is "$?" 2 "a deny stays a deny"

# --approval and --rules.
$C --approval never python3 -c 1 > /dev/null
is "$?" 0 "--approval never: allow"
$C --approval on-request ls > /dev/null
is "$?" 1 "--approval on-request: ls asked"
printf 'allow python3 **\n' > "$T/r2"
$C --rules "$T/r2" python3 -c 1 > /dev/null
is "$?" 0 "--rules FILE: its rules count"
printf '[approval]\nmode = never\n' > "$T/config/config"
$C python3 -c 1 > /dev/null
is "$?" 0 "the settings file's mode counts"
rm "$T/config/config"

# git: the repository where it would run counts (--cwd).
if command -v git > /dev/null; then
	git init -q "$T/w/r"
	$C --cwd "$T/w/r" git status > "$T/plain"
	rc=$?
	if [ -z "$(git config --system --list 2> /dev/null)" ]; then
		is "$rc" 0 "git status in a plain repository: allow"
	else
		# This host's own git configuration already sets something.
		is "$rc" 1 "git status: ask, the system's configuration sets a key"
	fi
	git -C "$T/w/r" config core.fsmonitor "$T/hook"
	$C --cwd "$T/w/r" git status > "$T/o"
	is "$?" 1 "core.fsmonitor set: ask"
	grep -qF "$T/w/r/.git/config sets core.fsmonitor" "$T/o"
	ok $? "... naming the file and the key"
	(cd "$T/w/r" && $C git status) | grep -q "sets core.fsmonitor"
	ok $? "without --cwd: the current directory"
else
	skip "git is not installed"
	skip "git is not installed"
	skip "git is not installed"
	skip "git is not installed"
fi

# Nothing runs.
$C touch "$T/w/made" > /dev/null
$C -c "touch $T/w/made2" > /dev/null
[ ! -e "$T/w/made" ] && [ ! -e "$T/w/made2" ]
ok $? "nothing is run"

# Errors: 125 and one line.
for bad in "" "--approval bogus ls" "--frob ls" "--rules" "-c" \
    "--rules $T/none ls" "-c ls ls" "-e X ls" "--sandbox bogus ls"; do
	$C $bad > /dev/null 2> "$T/e"
	rc=$?
	[ "$rc" -eq 125 ] && [ "$(wc -l < "$T/e")" -eq 1 ] &&
	    grep -q "^ptyvisor check: " "$T/e"
	ok $? "check $bad: exit 125, one line ($rc: $(cat "$T/e"))"
done
printf 'frob x\n' > "$T/bad-rules"
$C --rules "$T/bad-rules" ls 2> "$T/e"
is "$?" 125 "a rules file that does not parse: 125"
grep -qF "$T/bad-rules:1" "$T/e"; ok $? "... naming file:line"

# A settings file that does not parse: 125 too (no verdict from defaults),
# naming file:line; binary garbage and an overlong line alike.
for bad in '[sandbox]\nnetwork = maybe\n' '[approval]\nmode = %0300d\n' \
    '\001\377[\n\000=\n'; do
	printf "$bad" 0 > "$T/config/config"
	$C echo hi > "$T/o" 2> "$T/e"
	rc=$?
	[ "$rc" -eq 125 ] && [ ! -s "$T/o" ] &&
	    grep -q "config $T/config/config:[0-9]*: " "$T/e"
	ok $? "a bad settings file: 125, no verdict, file:line ($rc: $(head -c 200 "$T/e"))"
done
rm -f "$T/config/config"

done_testing
