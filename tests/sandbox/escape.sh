#!/bin/sh
# escape.sh - run the probe unsandboxed (where it must succeed: proof that
# it works) and under `ptyvisor sandbox` (where it must be stopped), for
# every escape the sandbox closes: filesystem, network, processes and
# secrets, privileges, resources; plus exit status and setup failures.
#
# Runs as whoever starts it; escape-nobody.sh runs it again as nobody.  The
# victim process and the loopback listeners are the test's own, stopped by
# pid on exit.

. "$top_srcdir/tests/tap.sh"

PROBE="$top_builddir/tests/sandbox/probe"
if [ -n "$ESCAPE_DIR" ]; then
	T=$ESCAPE_DIR
else
	T=$(mktemp -d "$OUTSIDE/ptyvisor-escape.XXXXXX") || exit 1
	cleanup_cmd "rm -rf '$T'"
	cp "$PROBE" "$T/suid" && chmod 4755 "$T/suid"
fi
mkdir -p "$T/ws" "$T/out" || exit 1
ME=$(id -un)
diag "running as $ME"
is_root() { [ "$(id -u)" -eq 0 ]; }

# Files outside the writable roots for the probes to attack.
fresh() { rm -f "$T/out/$1"; echo data > "$T/out/$1"; }
for f in f rm1 rm2; do fresh $f; done

# A process outside holding a secret, and loopback listeners.
(cd "$T/out" && API_KEY=sk-fake-ptyvisor-test exec sleep 300) &
V=$!
cleanup_pid $V
python3 "$top_srcdir/tests/sandbox/listeners.py" "$T/ports" "$T/unix.sock" \
	"ptyvisor-test-$$" &
cleanup_pid $!
wait_for "test -s '$T/ports'" 20 || { echo "Bail out! no listeners"; exit 1; }
read P4 P6 PU < "$T/ports"

cd "$T/ws" || exit 1

ALLOWED="read create devnull pipeline fork_exec socketpair create=/tmp"
# Stopped by the sandbox; allowed outside it.
DENIED="mkdir=$T/out create=$T/out append=$T/out/f truncate=$T/out/f
chmod=$T/out/f chown=$T/out/f utimes=$T/out/f setxattr=$T/out/f
mknod=$T/out unlink=$T/out/rm1 symlink_write=$T/out/f
hardlink_write=$T/out/f rename_in=$T/out/rm2 rename_out=$T/out
create=.. proc_cwd=$V open_by_handle mount=$T/out
tcp4=$P4 tcp6=$P6 udp=$PU devtcp=$P4 icmp packet netlink vsock
unix=$T/unix.sock unix=@ptyvisor-test-$$ unix_sendto=$T/unix.sock.dgram
unix_sendmsg=$T/unix.sock.dgram unix_pair_sendmsg=$T/unix.sock.dgram
io_uring io_uring_socket int80
setns=$V kill=$V kill0=$V ptrace=$V vm_readv=$V proc_mem=$V
proc_environ=$V env_secret caps setuid=$T/suid userns_mount keyring bpf
perf"
# Only tried sandboxed: the unsandboxed attempt would change the system.
SB_ONLY="create=/etc mkdir=/etc mknod=/etc append=/etc/passwd
chmod=/etc/passwd utimes=/etc/passwd setxattr=/etc/passwd"
[ -w "$HOME" ] && SB_ONLY="$SB_ONLY create=$HOME mkdir=$HOME"
# What an unprivileged user cannot do even without a sandbox.
NONROOT_DENIED="open_by_handle mount=$T/out icmp packet setns=$V bpf"

verdict() { awk -v s="$2" '$1 == s { print $2; exit }' "$1"; }
has_word() { case " $(echo $1) " in *" $2 "*) return 0;; esac; return 1; }

# What this host cannot do at all, with or without a sandbox: such a probe
# proves nothing either way here, so both halves are skipped with the reason.
# int 0x80 needs the kernel's IA32 emulation; without it the call faults.
HOST_LACKS=""
int80=$("$PROBE" int80)
case "$int80" in
"int80 error "*)
	HOST_LACKS="int80"
	host_why=${int80#int80 error } ;;
esac

API_KEY=sk-fake-parent "$PROBE" $ALLOWED $DENIED > "$T/plain.txt" 2>&1
for f in rm1 rm2; do fresh $f; done
API_KEY=sk-fake-parent "$PTYVISOR" sandbox -- "$PROBE" $ALLOWED $DENIED \
	$SB_ONLY > "$T/sandboxed.txt" 2>&1
is "$?" 0 "the sandboxed probe ran"

for p in $ALLOWED; do
	is "$(verdict "$T/plain.txt" "$p")" allowed "unsandboxed: $p"
	is "$(verdict "$T/sandboxed.txt" "$p")" allowed "sandboxed: $p still works"
done
for p in $DENIED; do
	v=$(verdict "$T/plain.txt" "$p")
	if has_word "$HOST_LACKS" "$p"; then
		skip "unsandboxed $p: $host_why"
		skip "sandboxed $p: $host_why (no verdict possible)"
		continue
	fi
	if ! is_root && has_word "$NONROOT_DENIED" "$p"; then
		skip "unsandboxed $p: $ME cannot do it anyway ($v)"
	else
		is "$v" allowed "unsandboxed: $p works (the probe is sound)"
	fi
	v=$(verdict "$T/sandboxed.txt" "$p")
	is "$v" denied "sandboxed: $p is denied ($(grep -F "$p " \
		"$T/sandboxed.txt" | head -1 | cut -d' ' -f3))"
done
for p in $SB_ONLY; do
	is "$(verdict "$T/sandboxed.txt" "$p")" denied "sandboxed: $p is denied"
done
ok "$(test -f "$T/out/rm1"; echo $?)" "the file outside is still there"

# A socket inherited from the caller is closed before the command starts.
python3 -c 'import os, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
os.dup2(s.fileno(), 3); os.set_inheritable(3, True)
os.execvp(sys.argv[2], sys.argv[2:])' "$P4" "$PROBE" inherited=3 \
	> "$T/inh-plain.txt" 2>&1
python3 -c 'import os, socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
os.dup2(s.fileno(), 3); os.set_inheritable(3, True)
os.execvp(sys.argv[2], sys.argv[2:])' "$P4" "$PTYVISOR" sandbox -- \
	"$PROBE" inherited=3 > "$T/inh-sb.txt" 2>&1
is "$(verdict "$T/inh-plain.txt" inherited=3)" allowed \
	"unsandboxed: an inherited socket works"
is "$(verdict "$T/inh-sb.txt" inherited=3)" denied \
	"sandboxed: an inherited socket is closed"

# A daemon (double fork + setsid) does not outlive the command.
"$PROBE" daemon > "$T/daemon-plain.txt" 2>&1
wait_for "grep -q alive '$T/daemon-plain.txt'" 5
ok $? "unsandboxed: the daemon outlives its command"
"$PTYVISOR" sandbox -- "$PROBE" daemon > "$T/daemon-sb.txt" 2>&1
sleep 1		# the daemon would speak after 0.4 s
! grep -q alive "$T/daemon-sb.txt"
ok $? "sandboxed: the daemon died with the command"

# Resource bounds: a fork bomb and a memory bomb, capped by the probe too.
is "$(verdict /dev/stdin forkbomb=150 <<EOF
$("$PROBE" forkbomb=150)
EOF
)" allowed "unsandboxed: 150 processes"
is "$("$PTYVISOR" sandbox --max-procs 40 -- "$PROBE" forkbomb=150 |
	cut -d' ' -f2-)" "denied EAGAIN" "sandboxed: the fork bomb stops at 40"
is "$("$PROBE" membomb=256 | cut -d' ' -f2)" allowed \
	"unsandboxed: 256 MiB of memory"
if [ "$("$PROBE" asan)" = "asan allowed" ]; then
	skip "the probe is built with AddressSanitizer, which cannot start \
under any RLIMIT_AS (it reserves terabytes of address space)"
else
	is "$("$PTYVISOR" sandbox --max-memory 64M -- "$PROBE" membomb=256 |
		cut -d' ' -f2-)" "denied ENOMEM" "sandboxed: the memory bomb stops"
fi

# --network really allows the loopback; danger-full-access is no sandbox.
"$PTYVISOR" sandbox --network -- "$PROBE" tcp4=$P4 tcp6=$P6 udp=$PU \
	unix=$T/unix.sock unix_sendmsg=$T/unix.sock.dgram > "$T/net.txt" 2>&1
for p in tcp4=$P4 tcp6=$P6 udp=$PU unix=$T/unix.sock \
	unix_sendmsg=$T/unix.sock.dgram; do
	is "$(verdict "$T/net.txt" "$p")" allowed "--network: $p"
done
"$PTYVISOR" sandbox --sandbox danger-full-access -- "$PROBE" \
	create=$T/out tcp4=$P4 kill0=$V caps > "$T/full.txt" 2>&1
for p in create=$T/out tcp4=$P4 kill0=$V; do
	is "$(verdict "$T/full.txt" "$p")" allowed "danger-full-access: $p"
done
is "$(verdict "$T/full.txt" caps)" "$(verdict "$T/plain.txt" caps)" \
	"danger-full-access: capabilities as outside"

# The exit status reaches the caller unchanged.
for s in exit=0 exit=3 exit=42 signal=9 signal=15; do
	"$PROBE" $s > /dev/null 2>&1
	want=$?
	"$PTYVISOR" sandbox -- "$PROBE" $s > /dev/null 2>&1
	is "$?" "$want" "exit status: $s gives $want"
done
PATH=/usr/bin:/bin "$PTYVISOR" sandbox -- no-such-command-here 2> "$T/err"
is "$?" 127 "a missing command exits 127"

# Setup failures: the command does not run; stage and reason are shown.
rm -f "$T/ws/ran"
"$PTYVISOR" sandbox --sandbox nonsense -- touch "$T/ws/ran" 2> "$T/err"
is "$?" 125 "unknown profile: exit 125"
is "$(cat "$T/err")" "ptyvisor sandbox: sandbox: unknown profile 'nonsense' \
(read-only, workspace-write, danger-full-access or none)" "unknown profile: the reason"
"$PTYVISOR" sandbox --writable "$T/missing" -- touch "$T/ws/ran" 2> "$T/err"
is "$?" 125 "missing writable root: exit 125"
is "$(cat "$T/err")" "ptyvisor sandbox: sandbox: writable root: $T/missing: \
No such file or directory" "missing writable root: the stage and reason"
ok "$(test ! -e "$T/ws/ran"; echo $?)" "the command did not run"

# --writable opens one more root; --protect-git keeps .git read-only.
"$PTYVISOR" sandbox --writable "$T/out" -- "$PROBE" create=$T/out \
	> "$T/wr.txt" 2>&1
is "$(verdict "$T/wr.txt" create=$T/out)" allowed "--writable DIR is writable"
mkdir -p "$T/ws/.git"
"$PTYVISOR" sandbox --protect-git -- "$PROBE" create=.git create \
	> "$T/git.txt" 2>&1
is "$(verdict "$T/git.txt" create=.git)" denied "--protect-git: .git read-only"
is "$(verdict "$T/git.txt" create)" allowed "--protect-git: the rest writable"
"$PTYVISOR" sandbox --sandbox read-only -- "$PROBE" create > "$T/ro.txt" 2>&1
is "$(verdict "$T/ro.txt" create)" denied "read-only: the cwd is not writable"

done_testing
