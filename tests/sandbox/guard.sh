#!/bin/sh
# guard.sh - what steers the supervision stays read-only and credentials
# stay hidden in the sandbox, tried every way an agent would: each probe
# runs once unsandboxed on a fresh home (where it must succeed: proof that
# it can fail) and once under `ptyvisor sandbox` with the home as the
# writable workspace (where it must be stopped and change nothing).  Then
# replacement by rename while a sandbox runs, the placeholders left behind,
# the settings that add and take off paths, and --explain.
#
# Runs as whoever starts it; guard-nobody.sh runs it again as nobody.

. "$top_srcdir/tests/tap.sh"

if [ -n "$GUARD_DIR" ]; then
	T=$GUARD_DIR
else
	T=$(mktemp -d "$OUTSIDE/ptyvisor-guard.XXXXXX") || exit 1
	cleanup_cmd "rm -rf '$T'"
fi
H=$T/home
diag "running as $(id -un)"

# A home as a new user's agent finds it, the workspace itself.
fixture() {
	rm -rf "$H"
	mkdir -p "$H/.config/ptyvisor" "$H/.claude" "$H/.ssh" "$H/.aws" \
	    "$H/repo/.git/hooks" "$H/repo/.git/objects" "$H/repo/.git/refs" \
	    "$H/.codex" "$H/state/sessions"
	echo 'deny rm **' > "$H/.config/ptyvisor/rules"
	echo '{"hooks":{}}' > "$H/.claude/settings.json"
	echo 'TOKEN-claude' > "$H/.claude/.credentials.json"
	echo 'TOKEN-codex' > "$H/.codex/auth.json"
	echo 'PRIVATE-KEY' > "$H/.ssh/id_ed25519"
	echo 'host-key' > "$H/.ssh/known_hosts"
	echo 'ssh-ed25519 AAA person' > "$H/.ssh/authorized_keys"
	echo '[default]' > "$H/.aws/credentials"
	echo 'machine x password p' > "$H/.netrc"
	echo 'alias ls=ls' > "$H/.bashrc"
	echo '[user]' > "$H/.gitconfig"
	echo '[core]' > "$H/repo/.git/config"
	echo 'ref: refs/heads/main' > "$H/repo/.git/HEAD"
	echo '{"cmd":"x"}' > "$H/state/history.jsonl"
	echo 'rec' > "$H/state/sessions/1.cast"
}
# Everything under the home, with contents: what a probe may not change.
snapshot() {
	(cd "$H" && find . -path ./repo/.git/objects -prune -o \
	    ! -name t ! -name k ! -name hl -print |
	    LC_ALL=C sort | while read -r f; do
		if [ -f "$f" ]; then
			echo "$f $(cksum < "$f")"
		else
			echo "$f"
		fi
	done)
}
export PTYVISOR_CONFIG="$H/.config/ptyvisor" PTYVISOR_STATE_DIR="$H/state"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
SB() { (cd "$H" && HOME=$H "$PTYVISOR" sandbox "$@"); }
PLAIN() { (cd "$H" && HOME=$H "$@"); }

fixture
if ! SB -- true 2> "$T/why"; then
	skip "no sandbox here: $(cat "$T/why")"
	done_testing
fi

# name, then the shell code of the attack.
probe() {
	name=$1
	shift
	fixture
	PLAIN sh -c "$1" > "$T/plain.out" 2>&1 < "${IN:-/dev/null}"
	ok $? "$name: works without a sandbox"
	fixture
	snapshot > "$T/before"
	SB -- sh -c "$1" > "$T/sb.out" 2>&1 < "${IN:-/dev/null}"
	rc=$?
	snapshot > "$T/after"
	[ "$rc" -ne 0 ] && cmp -s "$T/before" "$T/after"
	ok $? "$name: stopped in the sandbox, nothing changed ($(tr '\n' ' ' < "$T/sb.out" | cut -c 1-100))"
}

# ptyvisor's own: rules, settings, state.
probe "append a rule" 'echo "allow **" >> .config/ptyvisor/rules'
probe "sed the rules" 'sed -i "/deny/d" .config/ptyvisor/rules'
probe "write a settings file" 'echo "[approval]" > .config/ptyvisor/config'
probe "rewrite the history" 'echo "{}" > state/history.jsonl'
probe "read a recording" 'cat state/sessions/1.cast | grep -q rec'
# The agents' settings.
probe "disableAllHooks" \
    'echo "{\"disableAllHooks\": true}" > .claude/settings.local.json'
probe "remove the hook" 'echo "{}" > .claude/settings.json'
probe "create .gemini/settings.json" \
    'mkdir -p .gemini && echo "{}" > .gemini/settings.json'
probe "create .mcp.json" 'echo "{}" > .mcp.json'
probe "codex hooks" 'echo "{}" > .codex/hooks.json'
# git and the shell's start-up files.
probe "a git hook" 'printf "#!/bin/sh\n" > repo/.git/hooks/pre-commit'
probe "git config core.hooksPath" \
    'git -C repo config core.hooksPath /tmp'
probe "~/.gitconfig" 'echo "[alias]" >> .gitconfig'
probe "create ~/.zshrc" 'echo evil > .zshrc'
probe "create ~/.bash_profile" 'echo evil > .bash_profile'
probe "authorized_keys" 'echo key >> .ssh/authorized_keys'
# Every way around.
probe "rename over" 'echo evil > t && mv -f t .bashrc'
probe "hard link" 'ln .bashrc hl && echo evil >> hl'
probe "symlink swap" 'rm -f .gitconfig && ln -s t .gitconfig'
probe "truncate" 'truncate -s 0 .bashrc'
probe "chmod" 'chmod 777 .bashrc'
probe "unlink" 'rm .bashrc'
probe "a new file in a missing directory" \
    'mkdir -p .config/systemd/user && echo x > .config/systemd/user/x.service'
probe "/proc/self/fd of a descriptor opened before" \
    'exec 3< .bashrc && echo evil > /proc/self/fd/3'
IN=$H/.bashrc probe "stdin opened before the sandbox" \
    'echo evil > /proc/self/fd/0'
# Credentials: nothing read from them, however reached.
probe "cat a private key" 'cat .ssh/id_ed25519 | grep -q PRIVATE'
probe "cat cloud credentials" 'cat .aws/credentials | grep -q default'
probe "list cloud credentials" 'ls .aws | grep -q credentials'
probe "~/.netrc" 'grep -q password .netrc'
probe "Claude Code's login" 'grep -q TOKEN .claude/.credentials.json'
probe "Codex's login" 'grep -q TOKEN .codex/auth.json'
probe "by /proc/self/root" \
    "grep -q PRIVATE /proc/self/root$H/.ssh/id_ed25519"
probe "by a symlink planted in the workspace" \
    'ln -s .ssh/id_ed25519 k && grep -q PRIVATE k'
probe "by a hard link" 'ln .netrc hl && grep -q password hl'
if [ "$(id -u)" -eq 0 ]; then
	probe "/etc/shadow" 'grep -q root /etc/shadow'
fi

# What a session still does: the workspace, git's own files, known_hosts.
fixture
SB -- sh -c 'echo ok > new && git -C repo symbolic-ref HEAD >/dev/null &&
	touch repo/.git/index && grep -q host-key .ssh/known_hosts &&
	grep -q hooks .claude/settings.json && cat .bashrc' > "$T/o" 2>&1
is "$?:$(cat "$T/o")" "0:alias ls=ls" \
    "the workspace, .git's index, known_hosts and the protected files stay readable and usable"

# A placeholder made for a missing path is gone afterwards.
fixture
SB -- sh -c 'ls -a . > list' 2> /dev/null
grep -qx .mcp.json "$H/list"
ok $? "a missing protected file has a placeholder while the sandbox runs"
[ ! -e "$H/.mcp.json" ] && [ ! -e "$H/.gemini" ] && [ ! -e "$H/.zshrc" ]
ok $? "and no placeholder is left afterwards"

# Replaced by a rename outside while the sandbox runs: still guarded.
fixture
rm -f "$T/go" "$T/ready"
SB -- sh -c "touch '$T/ready'; while [ ! -e '$T/go' ]; do sleep 0.05; done
	echo evil >> .bashrc; echo bashrc=\$?
	echo evil >> repo/.git/config; echo config=\$?
	cat .claude/.credentials.json; echo cred=\$?
	cat .netrc; echo netrc=\$?" > "$T/o" 2>&1 &
sbpid=$!
cleanup_pid $sbpid
wait_for "test -e '$T/ready'" 20
echo 'new rc' > "$H/t1" && mv "$H/t1" "$H/.bashrc"
echo '[new]' > "$H/t2" && mv "$H/t2" "$H/repo/.git/config"
echo 'TOKEN-refreshed' > "$H/t3" && mv "$H/t3" "$H/.claude/.credentials.json"
echo 'machine y password q' > "$H/t4" && mv "$H/t4" "$H/.netrc"
sleep 0.3
touch "$T/go"
wait $sbpid
for w in bashrc config cred netrc; do
	grep -q "^$w=[1-9]" "$T/o"
	ok $? "replaced by a rename outside, $w stays guarded"
done
! grep -q 'TOKEN\|password' "$T/o"
ok $? "and no replaced credential is read"
is "$(cat "$H/.bashrc")" "new rc" "the person's new file is untouched"

# The settings add and take off paths; --explain names both.
fixture
mkdir -p "$H/.config/ptyvisor"
printf '[sandbox]\nhide = notes.txt\nexpose = ~/.netrc\n' \
    > "$H/.config/ptyvisor/config"
echo 'my notes' > "$H/notes.txt"
SB -- sh -c 'cat notes.txt' > /dev/null 2>&1
[ "$?" -ne 0 ]
ok $? "a setting hides a path of the workspace"
SB -- sh -c 'grep -q password .netrc'
is "$?" 0 "expose takes a path off the list"
SB --explain > "$T/explain" 2>&1
grep -q "exposed   ~/.netrc" "$T/explain"
ok $? "--explain names what was exposed"
grep -q "hidden    $H/notes.txt" "$T/explain" &&
    grep -q "read-only $H/.claude/" "$T/explain" &&
    grep -q "hidden    $H/.ssh/" "$T/explain"
ok $? "--explain lists the guarded paths"
rm -f "$H/.config/ptyvisor/config"

done_testing
