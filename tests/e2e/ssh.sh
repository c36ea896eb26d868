#!/bin/sh
# A console over ssh, through a real sshd the test starts on 127.0.0.1
# with its own host key and an authorized key made here: ptyvisor started
# in an ssh session survives the connection dropping; 'ssh -t host
# ptyvisor attach' brings the console back; and a console works through a
# UNIX socket forwarded by ssh -L (the man page's recipe).  Skips, with
# the reason, only where sshd cannot start, or (not as root) cannot give a
# session a terminal.
. "$top_srcdir/tests/e2e/tui-lib.sh"
. "$top_srcdir/tests/e2e/sshd-lib.sh"

K="$pv_dir/ssh"
sshd_start "$K" "$K/authorized_keys" "AllowStreamLocalForwarding yes" \
    "StreamLocalBindUnlink yes"
port=$SSHD_PORT
ssh-keygen -q -t ed25519 -N '' -f "$K/user" -C user < /dev/null
cp "$K/user.pub" "$K/authorized_keys"
chmod 600 "$K/authorized_keys"

sock="$pv_dir/pv.sock"
SSHO="-p $port -i $K/user -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes"
SSH="ssh -t $SSHO 127.0.0.1"
# sshd hands a session its terminal by giving it to the user and the tty
# group: an sshd that is not root can only where new terminals are the tty
# group's already (devpts mounted with gid=5), and elsewhere ends the
# session.  As root a terminal that does not come is a failure.
if [ "$(id -u)" -ne 0 ] &&
    ! ssh -tt $SSHO 127.0.0.1 true < /dev/null > /dev/null 2>&1; then
	echo "1..0 # SKIP not root, and sshd cannot give an ssh session a terminal here: $(grep -v kex_exchange "$K/sshd.log" | tail -n 1)"
	exit 0
fi
# What the remote command runs with (sshd passes TERM, not these).
REMOTE="env HOME=$pv_dir PTYVISOR_CONFIG=$pv_dir/config LANG=C.UTF-8 PTYVISOR_SOCKET=$sock PTYVISOR_STATE_DIR=$pv_dir/state SHELL=$pv_dir/pvsh $PTYVISOR"

pv_start 140 40
pv_type "$SSH '$REMOTE'; echo sshrc=\$?"; pv_keys Enter
pv_see 'pv$' 20; ok $? "ptyvisor starts in an ssh session, its console on the ssh terminal"
pv_type "echo over-\$((6*7))-ssh"; pv_keys Enter
pv_see 'over-42-ssh'; ok $? "keys go through"
s1=$($PTYVISOR ls --socket "$sock" | sed -n 's/^  #1 *running *pid \([0-9][0-9]*\) .*/\1/p')
[ -n "$s1" ]; ok $? "the session runs (pid $s1)"

# The connection drops: the ssh client is killed.
client=$(ps -o pid= --ppid "$(tmux -L "$pv_sock" display -p '#{pane_pid}')" | tr -d ' ')
kill -9 $client
pv_see 'sshrc=' 10; ok $? "the ssh connection is gone"
sleep 1
kill -0 "$s1"; ok $? "the session survived the connection"
$PTYVISOR ls --socket "$sock" | grep -q "1 running"
ok $? "and the server"

# The killed ssh left the outer terminal raw: Ctrl-J runs a line there.
pv_type "stty sane; clear"; pv_keys C-j
wait_for "! pv_cap | grep -q 'over-42-ssh'" 10; ok $? "the outer terminal is clean again"

# ssh -t host ptyvisor attach: the console back.
pv_type "$SSH '$REMOTE attach'; echo sshrc2=\$?"; pv_keys Enter
pv_see 'over-42-ssh' 20; ok $? "ssh -t host ptyvisor attach brings the console back"
pv_keys C-g d
pv_see "[detached from $sock]" 10; ok $? "and detaches again"
pv_see "sshrc2=0"; ok $? "ssh ends with status 0"

# Through a forwarded UNIX socket, as the man page shows.
fwd="$pv_dir/fwd.sock"
ssh -N $SSHO -o ExitOnForwardFailure=yes -L "$fwd:$sock" 127.0.0.1 \
    < /dev/null &
FWD=$!
cleanup_pid $FWD
wait_for "[ -S '$fwd' ]" 10; ok $? "ssh -L forwards the server's socket"
pv_type "clear; $PTYVISOR attach --socket $fwd; echo fwdrc=\$?"; pv_keys Enter
pv_see 'over-42-ssh' 20; ok $? "a console attaches through the forwarded socket"
pv_type "echo via-fwd-\$((2*3))"; pv_keys Enter
pv_see 'via-fwd-6'; ok $? "and types through it"
pv_keys C-g d
pv_see "fwdrc=0" 10; ok $? "and detaches (status 0)"
kill $FWD

done_testing
