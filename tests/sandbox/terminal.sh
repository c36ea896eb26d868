#!/bin/sh
# terminal.sh - the terminal escapes, inside a real pty whose outer side
# checks that nothing was injected: TIOCSTI (also with high bits in the
# request) and TIOCLINUX on the session's own terminal, writing to another
# terminal by its path, and kill(0) reaching the outer process group.

. "$top_srcdir/tests/tap.sh"

PROBE="$top_builddir/tests/sandbox/probe"
H="$top_srcdir/tests/sandbox/ttyharness.py"
T=$(mktemp -d "$OUTSIDE/ptyvisor-tty.XXXXXX") || exit 1
cleanup_cmd "rm -rf '$T'"
cd "$T" || exit 1

# The outer shell traps SIGURG: the probe's kill(0, SIGURG) must not reach it.
run() {
	rm -f "$T/urg"
	python3 "$H" sh -c 'trap "echo got > '"$T"'/urg" URG; "$@"; :' sh \
		"$@" > "$T/out.txt" 2>&1
}
verdict() { awk -v s="$1" '$1 == s { print $2; exit }' "$T/out.txt"; }
probes="tiocsti tiocsti=high tioclinux tty_write=@B tty_read=@B kill_group"

run "$PROBE" $probes
is "$(verdict tiocsti)" allowed "unsandboxed: TIOCSTI works"
is "$(verdict tiocsti=high)" allowed "unsandboxed: TIOCSTI with high bits works"
is "$(verdict injected)" yes "unsandboxed: the outer side sees the injection"
is "$(verdict other)" yes "unsandboxed: another terminal can be written"
is "$(verdict tty_read=@B)" allowed "unsandboxed: another terminal can be opened for reading"
ok "$(test -f "$T/urg"; echo $?)" "unsandboxed: kill(0) reaches the outer shell"

run "$PTYVISOR" sandbox -- "$PROBE" $probes
is "$(verdict tiocsti)" denied "sandboxed: TIOCSTI is denied"
is "$(verdict tiocsti=high)" denied "sandboxed: TIOCSTI with high bits is denied"
is "$(grep '^tioclinux ' "$T/out.txt" | cut -d' ' -f2-)" "denied EPERM" \
	"sandboxed: TIOCLINUX is denied by the filter"
is "$(verdict injected)" no "sandboxed: nothing reached the terminal's input"
is "$(verdict tty_write=@B)" denied "sandboxed: another terminal is out of reach"
is "$(verdict other)" no "sandboxed: nothing reached the other terminal"
is "$(verdict tty_read=@B)" denied \
	"sandboxed: another terminal cannot be opened for reading"
ok "$(test ! -f "$T/urg"; echo $?)" "sandboxed: kill(0) stays inside"

done_testing
