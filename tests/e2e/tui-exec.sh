#!/bin/sh
# Exec checks in the console, end to end: an agent's script runs a
# program an ask rule names; the program waits in exec while the console
# announces the request; the prompt shows the command, the chain it came
# from, the file and the rule, offers no edit; y lets it run.  A program a
# deny rule names is refused in the agent's session, while the person's
# own shell runs it (logged, not judged).  The prefix then e shows the
# focused session's processes and its last execs, and any key closes it.
. "$top_srcdir/tests/e2e/tui-lib.sh"

T=$pv_dir
mkdir -p "$T/config" "$T/ws"
printf 'allow sh push.sh\nallow sh slow.sh\nask git push **\ndeny tac **\n' \
    > "$T/config/rules"
sock="$T/run/pv.sock"
printf 'echo before\ngit push origin main\necho "push rc=$?"\n' > "$T/ws/push.sh"
printf 'tac push.sh >/dev/null; echo "tac rc=$?"; sleep 30\n' > "$T/ws/slow.sh"

pv_start 160 48
ag_start "$sock"
ag_run "cd '$T/ws'"
pv_type "cd '$T/ws'; PTYVISOR_SOCKET='$sock' PTYVISOR_CONFIG='$T/config' SHELL=$pv_dir/pvsh $PTYVISOR"
pv_keys Enter
pv_see 'pv$'; ok $? "the console starts with a shell"
wait_for "[ -S '$sock' ]" 10; ok $? "the console listens"

ag_run "$PTYVISOR exec -- sh push.sh; echo rc1=\$?"
pv_see "1 PENDING: #2 git push origin main" 15
ok $? "the status line names the program waiting in exec"
ag_cap | grep -q 'push rc'
ok $(( ! $? )) "the script waits at the push"
pv_keys C-g a
pv_see 'approve request #2?'; ok $? "the prompt opens on the prefix then a"
pv_cap > "$T/cap1"
grep -q "command  *git push origin main" "$T/cap1"; ok $? "it shows the command"
grep -q "exec in  *#[0-9]* sh push.sh ← git push origin main" "$T/cap1"
ok $? "it shows the chain it came from"
grep -q "file  *$(command -v git)" "$T/cap1"; ok $? "it shows the file"
grep -q "agent  *pid [0-9]* inside session [0-9]*, waiting in exec" \
    "$T/cap1"; ok $? "it says a program inside a session waits"
grep -q "asked by.*ask git push" "$T/cap1"; ok $? "it shows the rule"
grep -q "y let it run" "$T/cap1"; ok $? "its keys: let it run or deny"
grep -q "e edit" "$T/cap1"; ok $(( ! $? )) "and no edit"
pv_keys e
pv_see "y let it run  a run and remember  n deny  Esc later"
ok $? "e is not a key here: the keys are named"
pv_keys y
ag_see "push rc=128"; ok $? "y: git ran (no repository here: 128)"
ag_see "rc1=0"; ok $? "the agent gets the script's status"

# A denied program: refused in the agent's session, not in the person's.
ag_run "$PTYVISOR exec -- sh slow.sh"
pv_see "tac rc=126" 15; ok $? "the agent's tac is refused (126)"
pv_keys C-g 2
pv_keys C-g e
pv_see "processes and execs"; ok $? "prefix then e opens the view"
pv_cap > "$T/cap2"
grep -q "sleep 30" "$T/cap2"; ok $? "it shows the live process tree"
grep -q "deny  pid [0-9]*  tac push.sh  (rule 'deny tac \*\*'" "$T/cap2"
ok $? "and the refused exec with its rule"
grep -q "execs: [0-9]* checked, [1-9] denied" "$T/cap2"; ok $? "and the counts"
grep -q "ptyvisor (the sandbox's relay" "$T/cap2"; ok $? "ptyvisor's own processes are named"
pv_keys q
wait_for "! pv_cap | grep -q 'processes and execs'" 10
ok $? "any other key closes it"
pv_keys C-g 1
pv_type "tac push.sh | head -1"
pv_keys Enter
pv_see 'echo "push rc'; ok $? "the person's own shell runs tac (logged only)"

done_testing
