#!/bin/sh
# Agents and the console, end to end: the console serves the control
# socket; an agent's shim runs in another tmux window; requests the rules
# ask about are announced on the status line and wait until the prefix
# then a opens the approval prompt, where y runs one in a pane, n with a
# reason denies one (126 and the reason reach the agent), a remembers a
# rule (shown once more, then y; the next identical request runs without
# asking), e edits (shown once more, then y), Esc puts one off.  The settings file
# sets the prefix key (C-b) and a writable root agents' sessions get.
. "$top_srcdir/tests/e2e/tui-lib.sh"

T=$pv_dir
W=$(mktemp -d "$OUTSIDE/pv-writable.XXXXXX")
cleanup_cmd "rm -rf '$W'"
mkdir -p "$T/config"
printf 'deny rm -rf **\n' > "$T/config/rules"
printf '[tui]\nprefix = C-b\n[sandbox]\nwritable = %s\n' "$W" \
    > "$T/config/config"
sock="$T/run/pv.sock"

pv_start 160 48
ag_start "$sock"
ag_run "cd '$T'"

printf '#!/bin/sh\nprintf "%%s" "$1" > "%s/notified.json"\n' "$T" > "$T/notify"
chmod 755 "$T/notify"
pv_type "PTYVISOR_SOCKET='$sock' PTYVISOR_CONFIG='$T/config' SHELL=$pv_dir/pvsh $PTYVISOR --notify $T/notify"
pv_keys Enter
pv_see 'pv$'; ok $? "the console starts with a shell"
pv_see 'approval untrusted'; ok $? "the status line shows the approval mode"
wait_for "[ -S '$sock' ]" 10; ok $? "the console listens on the control socket"
grep -q "listening on $sock" "$T/state/ptyvisor.log"
ok $? "and says so in ptyvisor.log"

# Only one server: a second one refuses, the console keeps the socket.
PTYVISOR_SOCKET="$sock" timeout 10 $PTYVISOR serve 2> "$T/serve.err" \
    < /dev/null
is "$?" 125 "serve refuses to start while the console serves"
grep -q "already serving" "$T/serve.err"; ok $? "and says why"

# y: approve once; the command runs in a pane, the agent gets its status.
ag_run "$PTYVISOR exec --why 'make the marker' -- touch '$T/made'; echo rc1=\$?"
pv_see "1 PENDING: #1 touch $T"; ok $? "the status line names the request"
pv_cap | grep -q 'approve request #1?'
ok $(( ! $? )) "the prompt does not open by itself"
pv_keys C-b a
pv_see 'approve request #1?'; ok $? "the prefix then a opens the prompt"
pv_cap > "$T/cap1"
grep -qF "touch $T/made" "$T/cap1"; ok $? "it shows the command"
grep -qF "make the marker" "$T/cap1"; ok $? "it shows the agent's reason"
grep -q "cwd  *$T" "$T/cap1"; ok $? "it shows the cwd"
grep -q "sandbox  *workspace-write" "$T/cap1"; ok $? "it shows the profile"
grep -q "network  *no" "$T/cap1"; ok $? "it shows the network"
grep -q "agent  *pid [0-9]" "$T/cap1"; ok $? "it shows the agent's pid"
grep -q "asked by  *mode untrusted" "$T/cap1"; ok $? "it shows what asked"
grep -q "1 PENDING" "$T/cap1"; ok $? "the status line counts it"
ag_see "waiting for approval"; ok $? "the agent is told it waits"
wait_for "grep -q '\"argv\": *\\[\"touch\"' '$T/notified.json'" 10
ok $? "the notify program got the request as JSON"
[ ! -e "$T/made" ]; ok $? "nothing ran before the decision"
pv_keys y
ag_see "rc1=0"; ok $? "y: the agent gets exit 0"
[ -e "$T/made" ]; ok $? "the command ran"
pv_see "agent: touch $T/made"; ok $? "it ran in a pane marked as an agent's"
pv_see "0 pending"; ok $? "nothing waits any more"

# n + reason: 126 and the reason reach the agent; nothing runs.
ag_run "$PTYVISOR exec -- rm -f '$T/made'; echo rc2=\$?"
pv_see "1 PENDING: #2 rm -f"; ok $? "the next request is announced"
pv_keys C-b a
pv_see 'approve request #2?'; ok $? "and asked when the person opens it"
pv_keys n
pv_see 'Enter deny'; ok $? "n asks for a reason"
pv_type "use git clean instead"
pv_keys Enter
ag_see "rc2=126"; ok $? "n: the agent gets 126"
ag_see "denied by user (console 1, pts/"
ok $? "and who denied it: the person, at console 1 (its terminal named)"
ag_see "): use git clean instead"
ok $? "and the reason typed, on stderr"
[ -e "$T/made" ]; ok $? "the denied command did not run"

# a: approve and remember; the same request then runs without asking.
ag_run "$PTYVISOR exec -- touch '$T/again'; echo rc3=\$?"
pv_see "1 PENDING: #3"; pv_keys C-b a
pv_see 'approve request #3?'; ok $? "a third request is asked"
pv_keys a
pv_see "allow touch $T/again"; ok $? "a offers the rule to remember"
pv_keys Enter
pv_see "y approve and remember this rule"
ok $? "Enter shows the rule once more"
[ ! -e "$T/again" ]; ok $? "and approves nothing yet"
pv_keys y
ag_see "rc3=0"; ok $? "a, then y: approved"
ag_run "$PTYVISOR exec -- touch '$T/again'; echo rc4=\$?"
ag_see "rc4=0"; ok $? "the identical request runs"
grep -q "request 4 approved by rule 'allow touch" "$T/state/ptyvisor.log"
ok $? "by the remembered rule, without asking"
pv_cap | grep -q 'approve request #4'
ok $(( ! $? )) "no prompt appeared for it"

# e: edit, then approve; the agent is told what ran.
ag_run "$PTYVISOR exec -- touch '$T/wrong'; echo rc5=\$?"
pv_see "1 PENDING: #5"; pv_keys C-b a
pv_see 'approve request #5?'; ok $? "a fifth request is asked"
pv_keys e
pv_see "Enter check the edited command"; ok $? "e edits the command"
pv_keys C-u
pv_type "touch '$T/edited'"
pv_keys Enter
pv_see "will run touch $T/edited"
ok $? "Enter shows the edited command once more, as it will run"
pv_see "y approve this edited command"; ok $? "and asks for y"
[ ! -e "$T/edited" ]; ok $? "Enter alone approved nothing"
pv_keys y
ag_see "rc5=0"; ok $? "y approves the edited command"
ag_see "a person edited it"; ok $? "the agent is told it was edited"
[ -e "$T/edited" ] && [ ! -e "$T/wrong" ]
ok $? "the edited command ran, not the original"
wait_for "grep -q '\"request\":5,.*\"by\":\"user (console 1, pts/[0-9]*) (edited)\"' \
    '$pv_dir/state/history.jsonl'" 10
ok $? "the history names the console that edited it"

# Esc puts a request off; C-b a brings it back.
ag_run "$PTYVISOR exec -- touch '$T/later'; echo rc6=\$?"
pv_see "1 PENDING: #6"; pv_keys C-b a
pv_see 'approve request #6?'; ok $? "a sixth request is asked"
pv_keys Escape
wait_for "! pv_cap | grep -q 'approve request #6'" 10
ok $? "Esc hides the prompt"
is "$(pv_cap | tail -1 | sed 's/ *$//')" " request #6 waits for later" \
    "the message replaces the status line whole"
pv_see "1 PENDING"; ok $? "the request still counts as waiting"
pv_see "C-b a: answer"; ok $? "the status line says how to get back"
PTYVISOR_SOCKET="$sock" timeout 10 $PTYVISOR pending > "$T/pending" 2>&1
grep -q "^6	touch $T/later" "$T/pending"; ok $? "ptyvisor pending lists it too"
pv_keys C-b a
pv_see 'approve request #6?'; ok $? "C-b a shows it again"
pv_keys y
ag_see "rc6=0"; ok $? "and y runs it"

# The settings file's writable root reaches agents' sessions.
ag_run "$PTYVISOR exec -- touch '$W/from-agent'; echo rc7=\$?"
pv_see "1 PENDING: #7"; pv_keys C-b a
pv_see 'approve request #7?'; ok $? "a seventh request is asked"
pv_keys y
ag_see "rc7=0"; ok $? "an agent writes under the file's writable root"
[ -e "$W/from-agent" ]; ok $? "the file is there"

# Decided from the shell while the prompt shows it: the prompt goes away.
ag_run "$PTYVISOR exec -- touch '$T/remote'; echo rc8=\$?"
pv_see "1 PENDING: #8"; pv_keys C-b a
pv_see 'approve request #8?'; ok $? "an eighth request is asked"
PTYVISOR_SOCKET="$sock" timeout 10 $PTYVISOR deny 8 --reason "not from here"
ag_see "rc8=126"; ok $? "ptyvisor deny decides it"
wait_for "! pv_cap | grep -q 'approve request #8'" 10
ok $? "and the console's prompt closes"

# Invisible characters: escaped in the prompt, and the prompt warns.
rlo=$(printf '\342\200\256')
ag_run "$PTYVISOR exec --why 'see${rlo}txt' -- touch '$T/a${rlo}b'; echo rc9=\$?"
pv_see "1 PENDING: #9"; ok $? "a request with U+202E is announced"
pv_cap | grep -qF "$rlo"; ok $(( ! $? )) "the status line shows no raw U+202E"
pv_keys C-b a
pv_see 'approve request #9?'
pv_cap > "$T/cap9"
grep -q "WARNING.*invisible characters" "$T/cap9"; ok $? "the prompt warns"
grep -qF "touch \$'$T/a\\u202eb'" "$T/cap9"; ok $? "the command shows \\u202e"
grep -qF 'see\u202etxt' "$T/cap9"; ok $? "so does the reason"
! grep -qF "$rlo" "$T/cap9"; ok $? "nothing on screen holds the raw character"
pv_keys n Enter
ag_see "rc9=126"; ok $? "and it can be denied"

# A long command on the status line is cut by columns, not bytes: after
# "mkdir '" 12 wide characters fit in the 32 columns it gets (cut at 32
# bytes it was 8).
ag_run "$PTYVISOR exec -- mkdir 日本語日本語日本語日本語日本語日本語; echo rc10=\$?"
pv_see "1 PENDING: #10 mkdir"; ok $? "a request with wide characters is announced"
pv_cap | grep -qF "#10 mkdir '日本語日本語日本語日本語...  C-b a: answer"
ok $? "the notice keeps as many wide characters as fit in its columns"
pv_keys C-b a
pv_see 'approve request #10?'; pv_keys n Enter
ag_see "rc10=126"; ok $? "and the request is denied"

# The agent's own PATH: a known read-only command is asked, and the prompt
# shows the variable that made it so.
ag_run "PATH=$T/agent-bin:\$PATH $PTYVISOR exec -- ls -d /; echo rc11=\$?"
pv_see "1 PENDING: #11 ls -d /"; ok $? "ls with the agent's own PATH is asked"
pv_keys C-b a
pv_see 'approve request #11?'
pv_cap > "$T/cap11"
grep -q "environ  *'\?PATH=$T/agent-bin:" "$T/cap11"
ok $? "the prompt shows the agent's PATH"
grep -q "asked by  *environment differs: PATH" "$T/cap11"
ok $? "and that it asked because of it"
pv_keys y
ag_see "rc11=0"; ok $? "approved, it runs"

# The rules file is followed: a broken edit is named on the status line
# and in the log (the old rules stay), a good one is reloaded.
cp "$T/config/rules" "$T/rules.orig"
printf "allow 'broken\n" >> "$T/config/rules"
pv_see "rules not reloaded, the old ones stay: $T/config/rules:"
ok $? "a broken rules file is named, with its line, on the status line"
grep -q "rules not reloaded.*$T/config/rules:" "$T/state/ptyvisor.log"
ok $? "and in ptyvisor.log"
cp "$T/rules.orig" "$T/config/rules"
pv_see "rules reloaded from $T/config/rules"; ok $? "a good edit is reloaded"

# The settings file too: the approval mode changes at once.
cp "$T/config/config" "$T/config.orig"
printf '[approval]\nmode = on-request\n' >> "$T/config/config"
pv_see "settings reloaded from $T/config/config: approval on-request"
ok $? "a settings change is reloaded and said"
pv_see "approval on-request |"; ok $? "the status line shows the new mode"
printf 'bogus line\n' >> "$T/config/config"
pv_see "settings not reloaded, nothing changed: config $T/config/config:"
ok $? "a broken settings file changes nothing, with file:line"
cp "$T/config.orig" "$T/config/config"
pv_see "approval untrusted |" 15; ok $? "back to the first mode"

# A known read-only command made unsafe by the repository: the prompt says
# which file sets which key, and the planted hook has not run.
if command -v git > /dev/null; then
	git init -q "$T/r"
	printf '#!/bin/sh\n: > %s/r/MARK\n' "$T" > "$T/r/.git/h"
	chmod +x "$T/r/.git/h"
	git -C "$T/r" config core.fsmonitor "$T/r/.git/h"
	ag_run "$PTYVISOR exec --cwd '$T/r' -- git status; echo rcg=\$?"
	pv_see "PENDING: #" && pv_see " git status"
	ok $? "git status in it is asked"
	pv_keys C-b a
	pv_see 'approve request #'
	# The line may wrap in the box: join the rows.
	want=$(printf '%s' "git may run a program here: $T/r/.git/config sets core.fsmonitor" |
	    tr -d ' ')
	wait_for "pv_cap | tr -d ' │\n' | grep -qF -- '$want'" 10
	ok $? "the prompt says which file sets which key"
	[ ! -e "$T/r/MARK" ]; ok $? "the planted hook has not run"
	pv_keys n
	pv_see 'Enter deny'
	pv_keys Enter
	ag_see "rcg=126"; ok $? "denied"
	[ ! -e "$T/r/MARK" ]; ok $? "the hook never ran"
else
	for i in 1 2 3 4 5; do skip "git is not installed"; done
fi

# The history marks agents' sessions.
pv_keys C-b h
pv_see "agent (request 5): touch $T/edited"
ok $? "the history marks agents' sessions, with their request number"
pv_cap | grep -q "  denied  .*agent (request 2): rm -f $T/made"
ok $? "a request denied by the person is in the history too"
pv_keys q

# Quitting stops serving: the socket goes away.
pv_keys C-b q
pv_see "and quit?"
pv_keys y
pv_see 'outer$'; ok $? "the console quits"
wait_for "[ ! -e '$sock' ]" 10; ok $? "its socket is removed"

done_testing
