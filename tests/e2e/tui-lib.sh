# tui-lib.sh - helpers for the console's end-to-end tests (sourced).
#
# Each test gets a private tmux server (-L, no config) whose one pane
# runs a plain sh with a known prompt, and its own state directory.

. "$top_srcdir/tests/tap.sh"

command -v tmux >/dev/null 2>&1 || { echo "1..0 # SKIP tmux is missing"; exit 0; }

pv_sock=pv-$$
pv_dir=$(mktemp -d "${TMPDIR:-/tmp}/pv-tui.XXXXXX")

# The servers this test's consoles started (one per socket under $pv_dir;
# a console's sessions outlive it there): each ended by its pid, which
# 'ptyvisor ls' names, SIGTERM first (sessions killed, recordings
# flushed), SIGKILL after 5 s.
pv_servers_kill() {
	for s in $(find "$pv_dir" -type s 2>/dev/null); do
		pid=$("$PTYVISOR" ls --socket "$s" 2>/dev/null |
		    sed -n 's/.*: pid \([0-9][0-9]*\),.*/\1/p')
		[ -n "$pid" ] || continue
		kill -TERM "$pid" 2>/dev/null
		i=0
		while kill -0 "$pid" 2>/dev/null && [ $i -lt 50 ]; do
			sleep 0.1; i=$((i + 1))
		done
		kill -9 "$pid" 2>/dev/null
	done
	return 0
}
cleanup_cmd "pv_servers_kill; tmux -L $pv_sock kill-server 2>/dev/null; rm -rf '$pv_dir'"

# Start the server: $1 = width, $2 = height, $3 = TERM of the outer pane.
pv_start() {
	tmux -L "$pv_sock" -f /dev/null new-session -d -x "$1" -y "$2" \
	    "env -i PATH='$PATH' HOME='$pv_dir' TERM='${3:-screen}' \
	    LANG=C.UTF-8 SHELL=/bin/sh PS1='outer\$ ' \
	    PTYVISOR_STATE_DIR='$pv_dir/state' \
	    PTYVISOR_SOCKET='$pv_dir/pv.sock' /bin/sh"
	tmux -L "$pv_sock" set-option -g status off >/dev/null
	tmux -L "$pv_sock" set-option -g window-size manual >/dev/null 2>&1
	wait_for "pv_cap | grep -q 'outer\\$'" 10
}

# A $SHELL for sessions that sets its own prompt: the sandbox passes only
# an allow-list of variables (PS1 is not on it), SHELL is.
printf '#!/bin/sh\nPS1="pv\\$ " exec /bin/sh "$@"\n' > "$pv_dir/pvsh"
chmod 755 "$pv_dir/pvsh"

pv_cap() { tmux -L "$pv_sock" capture-pane -p; }
pv_keys() { tmux -L "$pv_sock" send-keys "$@"; }
# Literal text (no key names).
pv_type() { tmux -L "$pv_sock" send-keys -l "$1"; }
# Whether the status line (last row) is made of whole fields only: each of
# " ptyvisor", "N running", "N pending", "approval M", "sandbox P", "agents
# off" between bars, then the right side after at least one space.
pv_status_whole() {
	pv_cap | tail -1 | awk -F '|' '{
		n = split($0, f, "|")
		for (i = 1; i <= n; i++) {
			s = f[i]; sub(/^ +/, "", s)
			if (i == n) sub(/  +.*$/, "", s); else sub(/ +$/, "", s)
			if (s !~ /^(ptyvisor|[0-9]+ running|[0-9]+ (pending|PENDING)|approval [a-z-]+|sandbox [a-z-]+|agents off)$/) exit 1
		}
	}'
}
# wait_for a fixed string in the capture.
pv_see() { wait_for "pv_cap | grep -qF -- '$1'" "${2:-10}"; }

# An agent's shell, on a tmux server of its own (tmux 3.3 cannot open a
# second window once window-size is manual), talking to socket $1.
ag_sock=$pv_sock-agent
ag_start() {
	cleanup_cmd "tmux -L $ag_sock kill-server 2>/dev/null"
	tmux -L "$ag_sock" -f /dev/null new-session -d -x 160 -y 24 \
	    "env -i PATH='$PATH' HOME='$pv_dir' TERM=screen LANG=C.UTF-8 \
	    PTYVISOR_SOCKET='$1' PS1='agent\$ ' /bin/sh"
	wait_for "ag_cap | grep -q 'agent\\$'" 10
}
ag_cap() { tmux -L "$ag_sock" capture-pane -p; }
# Run a command line in the agent's shell.
ag_run() {
	tmux -L "$ag_sock" send-keys -l "$1"
	tmux -L "$ag_sock" send-keys Enter
}
ag_see() { wait_for "ag_cap | grep -qF -- '$1'" "${2:-15}"; }
