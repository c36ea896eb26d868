#!/bin/sh
# ssh-git.sh - credentials hidden, yet git over ssh still works for an
# agent's command when the person passes the ssh-agent on: a real sshd the
# test starts on 127.0.0.1, a key that lives only in an ssh-agent (its file
# in ~/.ssh is hidden in the sandbox), ~/.ssh/config read inside, and
# `git push` through `ptyvisor exec --network` with `[sandbox] expose =
# $SSH_AUTH_SOCK`; without it, the same push fails.  Skips, with the
# reason, where sshd, ssh-agent or git is missing or sshd cannot start.
. "$top_srcdir/tests/tap.sh"
. "$top_srcdir/tests/e2e/serve-lib.sh"
. "$top_srcdir/tests/e2e/sshd-lib.sh"

for c in ssh-agent ssh-add git; do
	command -v $c > /dev/null 2>&1 ||
	    { echo "1..0 # SKIP $c is missing"; exit 0; }
done

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export HOME="$T/home"
mkdir -p "$HOME/.ssh"
chmod 700 "$HOME/.ssh"
sshd_start "$T/sshd" "$T/sshd/authorized_keys"
port=$SSHD_PORT
ssh-keygen -q -t ed25519 -N '' -f "$HOME/.ssh/id_ed25519" -C me < /dev/null
cp "$HOME/.ssh/id_ed25519.pub" "$T/sshd/authorized_keys"
# What git over ssh reads in ~/.ssh: config (and known_hosts) stay.
cat > "$HOME/.ssh/config" <<EOF
Host gitsrv
	HostName 127.0.0.1
	Port $port
	User $(id -un)
	StrictHostKeyChecking no
	UserKnownHostsFile /dev/null
	BatchMode yes
	LogLevel ERROR
EOF
# ssh reads the passwd entry's home, not $HOME: name the file.
export GIT_SSH_COMMAND="ssh -F $HOME/.ssh/config"
# The key in an agent the person started.
eval "$(ssh-agent -s -a "$T/agent.sock")" > /dev/null
cleanup_pid "$SSH_AGENT_PID"
ssh-add -q "$HOME/.ssh/id_ed25519" 2> /dev/null
ok $? "the key is in the ssh-agent"

git init -q --bare "$T/srv.git"
pv_serve_setup
git init -q "$T/ws"
(cd "$T/ws" && git -c user.name=t -c user.email=t@t commit -q \
    --allow-empty -m one)
cd "$T/ws" || exit 1
git push -q "gitsrv:$T/srv.git" HEAD:refs/heads/outside
ok $? "outside a sandbox, git push over ssh works"

# An agent's push, its network asked for and approved.
push() {
	timeout 60 $PTYVISOR exec --network -- git push -q "gitsrv:$T/srv.git" \
	    "HEAD:refs/heads/$1" > "$T/o" 2>&1 < /dev/null &
	shim=$!
	cleanup_pid $shim
	pv_approve_waiting $shim
	wait $shim
}
pv_serve
push hidden
rc=$?
[ "$rc" -ne 0 ] && ! git --git-dir="$T/srv.git" rev-parse -q --verify refs/heads/hidden > /dev/null
ok $? "by default the key and the agent are out of reach: the push fails ($rc: $(head -c 120 "$T/o" | tr '\n' ' '))"
kill $SERVE
wait $SERVE 2> /dev/null

printf '[sandbox]\nexpose = $SSH_AUTH_SOCK\n' > "$T/config/config"
pv_serve
push agent
is "$?" 0 "with expose = \$SSH_AUTH_SOCK the push works through the agent ($(head -c 120 "$T/o" | tr '\n' ' '))"
git --git-dir="$T/srv.git" rev-parse -q --verify refs/heads/agent > /dev/null
ok $? "and the server has the branch"
$PTYVISOR exec --network -- cat "$HOME/.ssh/id_ed25519" > "$T/o" 2>&1 < /dev/null &
shim=$!
cleanup_pid $shim
pv_approve_waiting $shim
wait $shim
[ "$?" -ne 0 ] && ! grep -q PRIVATE "$T/o"
ok $? "the key file itself stays hidden"

done_testing
