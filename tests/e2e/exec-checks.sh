#!/bin/sh
# exec-checks.sh - the rules judge every program an approved command
# starts, with real programs: a Makefile recipe, a python subprocess tree
# and an npm script run a program a deny rule names and get "Permission
# denied" while the rest of their work goes on; a script's program an ask
# rule names waits in exec until a person answers (`ptyvisor pending`
# shows the chain it came from, the file and the rule), then runs or fails
# with EACCES and the reason is logged; `show` lists the exec log and the
# history counts it.  The server and its files are the test's own.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

T=$(mktemp -d "$OUTSIDE/ptyvisor-execs.XXXXXX") || exit 1
cleanup_cmd "[ -n \"$PV_KEEP\" ] || rm -rf '$T'"
pv_serve_setup
cat >> "$T/config/rules" <<'RULES'
allow make **
allow python3 **
allow npm **
allow sh push.sh
deny tac **
ask git push **
RULES
pv_serve
cd "$T/ws" || exit 1
echo data > "$T/ws/f"

# make: the recipe's tac is refused, the next lines still run.
printf 'all:\n\t-tac f\n\t@echo recipe-after\n' > Makefile
"$PTYVISOR" exec -- make -s > "$T/make.out" 2>&1
is "$?" 0 "make: the build ends well (its refused line ignored)"
grep -q 'tac: Permission denied' "$T/make.out"
ok $? "make: the recipe's tac gets Permission denied from execve"
grep -q recipe-after "$T/make.out"; ok $? "make: the rest of the build ran"
grep -q '^data' "$T/make.out"
ok $(( ! $? )) "make: tac did not run"

# python: a subprocess tree (python -> sh -> tac).
"$PTYVISOR" exec -- python3 -c 'import subprocess, sys
r = subprocess.run(["sh", "-c", "tac f; echo sh-rc=$?"])
try:
    subprocess.run(["tac", "f"])
except PermissionError as e:
    print("python:", e.strerror)
sys.exit(r.returncode)' > "$T/py.out" 2>&1
is "$?" 0 "python: the tree ran"
grep -q 'sh-rc=126' "$T/py.out"; ok $? "python -> sh -> tac: refused (126)"
grep -q 'python: Permission denied' "$T/py.out"
ok $? "python's own subprocess gets PermissionError"

# npm: a package script (npm -> sh -> tac).
if command -v npm > /dev/null 2>&1; then
	printf '{"name":"t","version":"1.0.0","scripts":{"t":"tac f || echo npm-after"}}\n' \
		> package.json
	HOME="$T/ws" npm_config_cache="$T/ws/.npm" "$PTYVISOR" exec -- \
		npm run --silent t > "$T/npm.out" 2>&1
	grep -q 'Permission denied' "$T/npm.out"
	ok $? "npm: the script's tac is refused"
	grep -q npm-after "$T/npm.out"; ok $? "npm: the script went on"
else
	skip "npm: not installed"
	skip "npm: not installed"
fi

# A script started by a shell (dash starts programs with vfork, so what
# runs is checked after the exec): the kernel's words for it (the
# interpreter, the script) are what was judged, nothing is killed.
printf '#!/bin/sh -e\necho "script got $*"\nsleep 0.3\necho script-done\n' \
	> "$T/ws/scr"
chmod 755 "$T/ws/scr"
"$PTYVISOR" exec -- sh -c './scr one "two words"; echo rc=$?' \
	> "$T/scr.out" 2>&1
grep -q 'script got one two words' "$T/scr.out" &&
	grep -q script-done "$T/scr.out" && grep -q 'rc=0' "$T/scr.out"
ok $? "a script started by a shell runs to its end"
! grep -q killed "$PTYVISOR_STATE_DIR"/sessions/*.exec.jsonl
ok $? "no exec was killed as running other than judged"

# ask: the script's git push waits in exec until a person answers.
printf 'echo before\ngit push origin main\necho "push rc=$?"\n' > push.sh
timeout 60 "$PTYVISOR" exec -- sh push.sh > "$T/push1.out" 2>&1 &
A=$!
cleanup_pid $A
wait_for "$PTYVISOR pending | grep -q 'git push origin main'" 20
ok $? "ask: git push waits for a person"
"$PTYVISOR" pending > "$T/pending.txt"
grep -q 'exec in session [0-9]*: #[0-9]* sh push.sh ← git push origin main' \
	"$T/pending.txt"; ok $? "pending shows the chain it came from"
grep -q "file: $(command -v git)" "$T/pending.txt"
ok $? "and the file it execs"
grep -q "asked by: ask git push \*\*" "$T/pending.txt"
ok $? "and the rule that asked"
grep -q before "$T/push1.out"; ok $? "the script ran up to the push"
grep -q 'push rc' "$T/push1.out"
ok $(( ! $? )) "and waits there: the push has not returned"
id=$("$PTYVISOR" pending | cut -f 1)
"$PTYVISOR" deny --reason "no pushing from tests" "$id"
wait $A
grep -q 'push rc=126' "$T/push1.out"; ok $? "denied: git gets EACCES (126)"
n=$(grep -c 'waits for approval.*git push' "$T/serve.log")
is "$n" 1 "asked once: the shell's tries along PATH of where git is not ask nothing"

timeout 60 "$PTYVISOR" exec -- sh push.sh > "$T/push2.out" 2>&1 &
A=$!
cleanup_pid $A
wait_for "$PTYVISOR pending | grep -q 'git push origin main'" 20
id=$("$PTYVISOR" pending | cut -f 1)
"$PTYVISOR" approve "$id"
wait $A
grep -q 'push rc=128' "$T/push2.out"
ok $? "approved: git itself ran (and found no repository: 128)"

# The record: show lists the log, history counts it.
last=$("$PTYVISOR" history --json | tail -1)
sid=$(printf '%s\n' "$last" | sed -n 's/^{"id":\([0-9]*\),.*/\1/p')
printf '%s\n' "$last" | grep -q '"execs":{"checked":1,"denied":0}'
ok $? "history --json counts the session's execs"
"$PTYVISOR" show "$sid" > "$T/show.txt"
grep -q 'asked pid [0-9]*  git push origin main  (user)' "$T/show.txt"
ok $? "show lists the exec that was asked about"
first=$("$PTYVISOR" history --json | sed -n 's/^{"id":\([0-9]*\),.*"make","-s".*/\1/p')
"$PTYVISOR" show "$first" > "$T/show1.txt"
grep -q "deny  pid [0-9]*  tac f  (rule 'deny tac \*\*'" "$T/show1.txt"
ok $? "show lists make's refused tac with the rule"
grep -q 'execs: *2 checked, 1 denied' "$T/show1.txt"
ok $? "and the counts"
d=$("$PTYVISOR" history --json | grep '"sh","push.sh"' | head -1)
printf '%s\n' "$d" | grep -q '"denied":[1-9]'
ok $? "the denied push counts as denied"
log=$(ls "$PTYVISOR_STATE_DIR"/sessions/*.exec.jsonl | xargs grep -l '"asked":true,"by":"user: no pushing')
ok $? "the reason is in the exec log ($log)"

# A command a person approved is not asked again for its own programs: the
# rule that asked about the command line judged what its shell runs.
printf 'ask touch **\n' >> "$T/config/rules"
sleep 0.3	# the server follows the rules file
timeout 60 "$PTYVISOR" exec -- sh -c 'touch covered; echo covered-rc=$?' \
	> "$T/covered.out" 2>&1 &
A=$!
cleanup_pid $A
wait_for "$PTYVISOR pending | grep -q 'touch covered'" 20
ok $? "ask: the command line is asked about"
id=$("$PTYVISOR" pending | cut -f 1)
"$PTYVISOR" approve "$id"
wait $A
grep -q 'covered-rc=0' "$T/covered.out" && [ -e covered ]
ok $? "approved: its touch ran, not asked a second time"

# Strict ([exec] strict = yes): an exec no rule allows is asked; one a
# rule allows is not.
printf '[exec]\nstrict = yes\n' > "$T/config/config"
printf 'allow sh strict.sh\nallow echo **\n' >> "$T/config/rules"
printf 'echo start\ncat f; echo "cat rc=$?"\n' > strict.sh
kill "$SERVE"; wait "$SERVE" 2> /dev/null
pv_serve
timeout 60 "$PTYVISOR" exec -- sh strict.sh > "$T/strict.out" 2>&1 &
A=$!
cleanup_pid $A
wait_for "$PTYVISOR pending | grep -q 'cat f.*exec in session'" 20
ok $? "strict: cat, which no rule names, is asked"
"$PTYVISOR" pending | grep -q 'asked by: strict exec checks'
ok $? "... by strict mode, said so"
id=$("$PTYVISOR" pending | cut -f 1)
"$PTYVISOR" deny "$id"
wait $A
grep -q 'cat rc=126' "$T/strict.out"; ok $? "... and denied: 126"
rm -f "$T/config/config"

# The server goes away while a program waits in exec: it never runs.
printf 'allow sh toucher.sh\n' >> "$T/config/rules"
printf 'touch ran\necho touched\n' > toucher.sh
kill "$SERVE"; wait "$SERVE" 2> /dev/null
pv_serve
timeout 60 "$PTYVISOR" exec -- sh toucher.sh > "$T/gone.out" 2>&1 &
A=$!
cleanup_pid $A
wait_for "$PTYVISOR pending | grep -q 'touch ran.*exec in session'" 20
ok $? "touch waits in exec"
kill -9 "$SERVE"
wait $A
sleep 0.5
[ ! -e "$T/ws/ran" ]; ok $? "the server killed: the waiting program never ran"
grep -q touched "$T/gone.out"
ok $(( ! $? )) "and the script did not go on"

done_testing
