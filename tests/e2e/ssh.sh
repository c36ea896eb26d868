#!/bin/sh
# A console over ssh, through a real sshd the test starts on 127.0.0.1
# with its own host key and an authorized key made here: ptyvisor started
# in an ssh session survives the connection dropping; 'ssh -t host
# ptyvisor attach' brings the console back; and a console works through a
# UNIX socket forwarded by ssh -L (the man page's recipe).  Skips, with
# the reason, only where sshd cannot start.
. "$top_srcdir/tests/e2e/tui-lib.sh"

SSHD=$(command -v sshd 2> /dev/null || echo /usr/sbin/sshd)
[ -x "$SSHD" ] || { echo "1..0 # SKIP sshd is missing (openssh-server)"; exit 0; }
for c in ssh ssh-keygen python3; do
	command -v $c > /dev/null 2>&1 ||
	    { echo "1..0 # SKIP $c is missing"; exit 0; }
done

K="$pv_dir/ssh"
mkdir -p "$K"
chmod 700 "$K"
ssh-keygen -q -t ed25519 -N '' -f "$K/host" -C host < /dev/null
ssh-keygen -q -t ed25519 -N '' -f "$K/user" -C user < /dev/null
cp "$K/user.pub" "$K/authorized_keys"
chmod 600 "$K/authorized_keys"
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
cat > "$K/sshd_config" <<EOF
Port $port
ListenAddress 127.0.0.1
HostKey $K/host
AuthorizedKeysFile $K/authorized_keys
PidFile $K/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers $(id -un)
AllowStreamLocalForwarding yes
StreamLocalBindUnlink yes
LogLevel ERROR
EOF
# As root sshd needs its privilege separation directory (the package's
# service makes it at boot; a container may not have it).
[ "$(id -u)" -ne 0 ] || [ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd
"$SSHD" -f "$K/sshd_config" -D -e 2> "$K/sshd.log" &
SSHD_PID=$!
cleanup_pid $SSHD_PID
if ! wait_for "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $port), 1)' 2>/dev/null" 10; then
	echo "1..0 # SKIP sshd cannot start here: $(head -c 300 "$K/sshd.log" | tr '\n' ' ')"
	exit 0
fi

sock="$pv_dir/pv.sock"
SSH="ssh -t -p $port -i $K/user -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes 127.0.0.1"
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
ssh -N -p $port -i "$K/user" -o StrictHostKeyChecking=no \
    -o UserKnownHostsFile=/dev/null -o LogLevel=ERROR -o BatchMode=yes \
    -o ExitOnForwardFailure=yes -L "$fwd:$sock" 127.0.0.1 < /dev/null &
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
