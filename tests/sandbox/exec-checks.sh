#!/bin/sh
# exec-checks.sh - every way a program can run another one, tried by the
# exec probe unsandboxed (where each must work: proof the probe is sound)
# and inside an agent's session whose rules deny that program (where each
# must be refused): execve, a renamed argv[0], execveat on a descriptor, a
# renamed copy, the dynamic loader, vfork, posix_spawn, a second thread,
# the i386 entry, a second thread changing the path after it was read
# (what ran is checked after the exec and killed); and a listener of the sandbox's own refused while a
# plain filter (a browser's) still loads; a process sharing the memory
# without waiting (CLONE_VM alone) is refused, threads and vfork stay.  The server and its files are
# the test's own, stopped by pid.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"

PROBE="$top_builddir/tests/sandbox/execprobe"
T=$(mktemp -d "$OUTSIDE/ptyvisor-execchk.XXXXXX") || exit 1
cleanup_cmd "rm -rf '$T'"
pv_serve_setup

if ! why=$("$PTYVISOR" sandbox --explain -- true 2>&1 |
	grep 'exec checks'); then
	echo "Bail out! --explain says nothing of exec checks"
	exit 1
fi

TARGET=$(command -v tac)
OTHER=$(command -v cat)
SLEEP=$(command -v sleep)
TRUE=$(command -v true)
case $TRUE in /*) ;; *) TRUE=/bin/true ;; esac
LD=$(ldd "$TARGET" 2>/dev/null | awk '$1 ~ /^\/.*ld/ { print $1; exit }')
[ -n "$LD" ] || LD=$(ldd "$TARGET" | awk '/ld-linux|ld64/ { print $3 }')
printf 'deny tac **\ndeny sleep **\nallow %s **\n' "$PROBE" >> "$T/config/rules"
pv_serve

DENIED="execve=$TARGET exec_a=$TARGET execveat=$TARGET copy=$TARGET
loader=$LD,$TARGET vfork=$TARGET spawn=$TARGET thread=$TARGET
int80=$TARGET race=$SLEEP,$TRUE listener clone_vm"
ALLOWED="execve=$OTHER spawn=$OTHER vfork=$OTHER thread=$OTHER filter"

verdict() { awk -v s="$2" '$1 == s { print $2; exit }' "$1"; }

cd "$T/ws" || exit 1
"$PROBE" $DENIED $ALLOWED > "$T/plain.txt" 2>&1
"$PTYVISOR" exec -- "$PROBE" $DENIED $ALLOWED > "$T/session.txt" 2>&1
is "$?" 0 "the probe ran in a session"
for p in $ALLOWED; do
	is "$(verdict "$T/plain.txt" "$p")" allowed "unsandboxed: $p"
	is "$(verdict "$T/session.txt" "$p")" allowed "in a session: $p still works"
done
for p in $DENIED; do
	v=$(verdict "$T/plain.txt" "$p")
	if [ "$v" = error ]; then
		w=$(grep -F "$p " "$T/plain.txt" | cut -d' ' -f3-)
		skip "unsandboxed $p: $w"
		skip "in a session $p: $w (no verdict possible)"
		continue
	fi
	if [ "$p" = listener ] && [ "$v" != allowed ]; then
		skip "unsandboxed $p: this host refuses it anyway ($v)"
	else
		is "$v" allowed "unsandboxed: $p works (the probe is sound)"
	fi
	is "$(verdict "$T/session.txt" "$p")" denied \
		"in a session: $p is denied ($(grep -F "$p " "$T/session.txt" |
		head -1 | cut -d' ' -f3))"
done

# --explain says where exec checks are and are not.
"$PTYVISOR" sandbox --explain -- true 2>&1 | grep -q 'exec checks     off here'
ok $? "sandbox --explain: no exec checks for a plain sandbox (nobody to ask)"
"$PTYVISOR" sandbox --sandbox none --explain -- true 2>&1 |
	grep -q 'exec checks: off'
ok $? "--sandbox none --explain: exec checks are off"

# The log beside the recording: each refusal with the rule that made it.
LOG=$(ls "$PTYVISOR_STATE_DIR"/sessions/*.exec.jsonl 2>/dev/null | head -1)
ok "$(test -s "$LOG"; echo $?)" "the session has an exec log"
n=$(grep -c '"verdict":"deny","by":"rule .deny tac \*\*' "$LOG")
ok "$(test "$n" -ge 6; echo $?)" "the log has the refusals by the rule ($n)"
ok "$(grep -q "\"path\":\"$OTHER\".*\"verdict\":\"allow\"" "$LOG"; echo $?)" \
	"and the program let through"

done_testing
