#!/bin/sh
# no-namespaces.sh - the sandbox where the kernel refuses namespaces and
# --allow-no-namespaces lets it run on Landlock and seccomp alone: modes,
# owners, past times and extended attributes outside the writable roots are
# still refused (nothing is read-only there), another terminal is still out
# of reach, and a signal sent to the whole process group of `ptyvisor
# sandbox` reaches the command once (with namespaces too).
#
# The refusal is made real: a user namespace of our own where we are root
# (uid 0 maps to ourselves) whose namespace count limits are 0, so every
# unshare the sandbox tries fails as on a kernel without them.  Skipped
# where such a user namespace cannot be made.

. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/sandbox/lib.sh"

PROBE="$top_builddir/tests/sandbox/probe"
T=$(mktemp -d "$OUTSIDE/ptyvisor-nons.XXXXXX") || exit 1
cleanup_cmd "rm -rf '$T'"
mkdir -p "$T/ws" "$T/out" "$T/config" || exit 1
export XDG_CONFIG_HOME="$T/config"
cd "$T/ws" || exit 1
diag "running as $(id -un)"

if ! command -v unshare > /dev/null || ! nons true 2> "$T/why"; then
	skip "cannot make a user namespace without namespaces here: \
$(head -1 "$T/why")"
	done_testing
fi
nons "$PTYVISOR" sandbox --explain > "$T/explain.txt" 2>&1
grep -q 'namespaces .*refused by the kernel' "$T/explain.txt"
ok $? "the kernel refuses the sandbox's namespaces in this setting"
grep -q 'guarded paths .*NOT IN FORCE without namespaces' "$T/explain.txt"
ok $? "--explain says plainly that no guarded path holds without them"
nons "$PTYVISOR" sandbox -- true 2> "$T/err"
is "$?" 125 "without --allow-no-namespaces the command does not run"

verdict() { awk -v s="$2" '$1 == s { print $2; exit }' "$1"; }
echo data > "$T/out/f"

# Changes to a file outside the writable roots.
DENIED="chmod=$T/out/f chown=$T/out/f utimes_past=$T/out/f
setxattr=$T/out/f append=$T/out/f create=$T/out"
nons "$PROBE" $DENIED > "$T/plain.txt" 2>&1
echo data > "$T/out/f"
echo data > "$T/ws/g"
nons "$PTYVISOR" sandbox --allow-no-namespaces -- "$PROBE" $DENIED create \
	utimes=g > "$T/sb.txt" 2>&1
is "$?" 0 "the sandboxed probe ran without namespaces"
for p in $DENIED; do
	v=$(grep "^$p " "$T/plain.txt" | cut -d' ' -f2-)
	case "$p $v" in
	"setxattr="*" denied EOPNOTSUPP")
		skip "setxattr: $OUTSIDE does not take user xattrs" ;;
	*)
		is "$v" allowed "no sandbox: $p works (the probe is sound)"
		is "$(verdict "$T/sb.txt" "$p")" denied \
			"no namespaces: $p is denied" ;;
	esac
done
is "$(verdict "$T/sb.txt" create)" allowed "no namespaces: the cwd is writable"
is "$(verdict "$T/sb.txt" utimes=g)" allowed \
	"no namespaces: times may still be set to now (touch)"

# An agent beside it holding a secret in its environment: without a PID
# namespace its /proc entry is there, and Landlock keeps it unreadable.
agent_environ() {
	nons sh -c '(API_KEY=sk-fake-ptyvisor-test exec sleep 60) &
		v=$!
		# Probed once sleep holds the secret: before its exec the
		# subshell has none (up to 5 s).
		i=0
		until tr "\0" "\n" < /proc/$v/environ 2>/dev/null |
		    grep -q "^API_KEY=" || [ $i -ge 500 ]; do
			sleep 0.01; i=$((i + 1))
		done
		"$@" proc_environ=$v
		kill $v' sh "$@"
}
agent_environ "$PROBE" > "$T/env-plain.txt" 2>&1
is "$(awk '{ print $2; exit }' "$T/env-plain.txt")" allowed \
    "no sandbox: the agent's environment is readable (the probe is sound)"
agent_environ "$PTYVISOR" sandbox --allow-no-namespaces -- "$PROBE" \
    > "$T/env-sb.txt" 2>&1
is "$(awk '/^proc_environ/ { print $2; exit }' "$T/env-sb.txt")" denied \
    "no namespaces: the agent's /proc/PID/environ is not readable"

# Another terminal, by Landlock alone.
nons python3 "$top_srcdir/tests/sandbox/ttyharness.py" \
	"$PTYVISOR" sandbox --allow-no-namespaces -- "$PROBE" \
	tty_read=@B tty_write=@B > "$T/tty.txt" 2>&1
is "$(verdict "$T/tty.txt" tty_read=@B)" denied \
	"no namespaces: another terminal cannot be opened for reading"
is "$(verdict "$T/tty.txt" tty_write=@B)" denied \
	"no namespaces: another terminal cannot be written"

# A signal to the whole process group of `ptyvisor sandbox` (as a
# supervisor stopping a job sends it): the probe counts each delivery.
count_term() {
	rm -f ready
	$RUN python3 -c '
import os, signal, subprocess, sys, time
p = subprocess.Popen(sys.argv[1:], start_new_session=True,
                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
end = time.time() + 10
while not os.path.exists("ready") and time.time() < end:
    time.sleep(0.05)
os.killpg(p.pid, signal.SIGTERM)
out = p.communicate()[0].decode().split("\n")
print(" ".join([l for l in out if l.startswith("received")]))' "$@" \
		"$PROBE" sigcount=15
}
RUN=
is "$(count_term)" "received 1" \
	"no sandbox: the probe counts one signal (it is sound)"
RUN=nons
is "$(count_term "$PTYVISOR" sandbox --allow-no-namespaces --)" \
	"received 1" \
	"no namespaces: a signal to the process group reaches the command once"
RUN=
is "$(count_term "$PTYVISOR" sandbox --)" "received 1" \
	"with namespaces: a signal to the process group reaches the command once"

done_testing
