#!/bin/sh
# Detach and attach: sessions live in a server, consoles come and go.
# C-g d detaches (status 0); the terminal closing and the client killed
# are detaches too; attach brings the console back as it was; two
# consoles at once, each its own size (the pane takes the smallest) and
# focus; a request waiting shows on both, the first answer wins and the
# history names the console; a read-only console cannot type, approve or
# start anything; quitting with sessions running asks; ls, -L NAME and
# kill-server.
. "$top_srcdir/tests/e2e/tui-lib.sh"

sock="$pv_dir/pv.sock"
# A second terminal: a tmux server of its own (window-size manual keeps
# tmux 3.3 from opening a second window), the same environment.
pv2_sock=$pv_sock-two
cleanup_cmd "tmux -L $pv2_sock kill-server 2>/dev/null"
pv2_start() {
	tmux -L "$pv2_sock" -f /dev/null new-session -d -x "$1" -y "$2" \
	    "env -i PATH='$PATH' HOME='$pv_dir' TERM=screen LANG=C.UTF-8 \
	    SHELL=$pv_dir/pvsh PS1='outer2\$ ' \
	    PTYVISOR_STATE_DIR='$pv_dir/state' PTYVISOR_SOCKET='$sock' \
	    /bin/sh"
	tmux -L "$pv2_sock" set-option -g status off >/dev/null
	wait_for "pv2_cap | grep -q 'outer2\\$'" 10
}
pv2_cap() { tmux -L "$pv2_sock" capture-pane -p; }
pv2_keys() { tmux -L "$pv2_sock" send-keys "$@"; }
pv2_type() { tmux -L "$pv2_sock" send-keys -l "$1"; }
pv2_see() { wait_for "pv2_cap | grep -qF -- '$1'" "${2:-10}"; }
server_pid() {
	$PTYVISOR ls --socket "$sock" 2> /dev/null |
	    sed -n 's/.*: pid \([0-9][0-9]*\),.*/\1/p'
}
session_pid() {
	$PTYVISOR ls --socket "$sock" 2> /dev/null |
	    sed -n "s/^  #$1 *[a-z]* *pid \\([0-9][0-9]*\\) .*/\\1/p"
}

pv_start 160 48
pv_type "SHELL=$pv_dir/pvsh $PTYVISOR; echo rc=\$?"
pv_keys Enter
pv_see 'pv$'; ok $? "plain ptyvisor starts a server and shows its console"
[ -S "$sock" ]; ok $? "the server listens on the socket"
spid=$(server_pid)
[ -n "$spid" ] && kill -0 "$spid"; ok $? "ls names the server's pid ($spid)"
pv_type "echo mark-\$((6*7))"; pv_keys Enter
pv_see 'mark-42'; ok $? "the session takes keys"
s1=$(session_pid 1)
[ -n "$s1" ] && kill -0 "$s1"; ok $? "ls names the session's pid ($s1)"

# A second pane, then the first zoomed: the state a detach must keep.
pv_keys C-g c
pv_see ' 2* #2'; ok $? "a second pane"
pv_keys C-g 1
pv_keys C-g z
pv_see 'ZOOM (+1 hidden)'; ok $? "the first zoomed"

# C-g d: the terminal back, status 0, the session still running.
pv_keys C-g d
pv_see "[detached from $sock]"; ok $? "C-g d detaches and says from where"
pv_see "rc=0"; ok $? "with exit status 0"
pv_see 'outer$'; ok $? "the outer shell has its terminal back"
! pv_cap | grep -q 'mark-42'; ok $? "and its own screen (the console's is gone)"
kill -0 "$s1"; ok $? "the session still runs"
$PTYVISOR ls --socket "$sock" > "$pv_dir/ls1"
grep -q "2 sessions (2 running)" "$pv_dir/ls1"; ok $? "ls lists them running"

# attach: the console as it was.
pv_type "$PTYVISOR attach; echo rc2=\$?"; pv_keys Enter
pv_see 'mark-42'; ok $? "attach brings the console back with its pane's text"
pv_see ' 1* ZOOM (+1 hidden) #1'; ok $? "and its focus and zoom"
# The second session ended and its pane closed: one pane again.
pv_keys C-g z
pv_keys C-g 2
pv_keys C-g x
pv_keys y
wait_for "$PTYVISOR ls --socket '$sock' | grep -q '(1 running)'" 10
pv_keys C-g x
wait_for "! pv_cap | grep -q ' 2[* ] #2'" 10; ok $? "the second killed and closed"

# The terminal closing (SIGHUP) is a detach: nothing dies.
tmux -L "$pv_sock" kill-server
wait_for "! tmux -L '$pv_sock' has-session 2>/dev/null" 10
sleep 0.5
kill -0 "$spid"; ok $? "the outer terminal closed: the server lives"
kill -0 "$s1"; ok $? "and the session"
pv_start 160 48
pv_type "$PTYVISOR; echo rc3=\$?"; pv_keys Enter
pv_see 'mark-42'; ok $? "plain ptyvisor attaches to the running server"

# A second console at another size: the pane takes the smallest size;
# each console has its own focus.
pv2_start 100 30
pv2_type "$PTYVISOR attach"; pv2_keys Enter
pv2_see 'mark-42'; ok $? "a second console attaches while the first is"
pv_see ' 1* #1'; ok $? "the first one still shows"
pv_type "stty size"; pv_keys Enter
pv_see "28 100"; ok $? "the pane's size is the smaller console's (28x100)"
pv2_see "28 100"; ok $? "both consoles show the same session"
pv2_keys C-g c
pv2_see ' 2* #3'; ok $? "a shell opened in the second console is focused there"
pv_see ' 2  #3'; ok $? "and shown, unfocused, in the first"
pv_cap | grep -q ' 1\* #1'; ok $? "the first keeps its focus"

# A request waits on both; the first answer wins everywhere.
ag_start "$sock"
ag_run "$PTYVISOR exec -- touch '$pv_dir/approved'; echo agrc=\$?"
pv_see "1 PENDING"; ok $? "a waiting request shows on the first console"
pv2_see "1 PENDING"; ok $? "and on the second"
pv2_keys C-g a
pv2_see 'approve request #1?'; ok $? "the second opens the prompt"
pv2_keys y
ag_see "agrc=0"; ok $? "approved there: the agent's command ran"
wait_for "! pv_cap | grep -q 'PENDING'" 10
ok $? "the first console no longer shows it waiting"
wait_for "grep -q 'console 2, pts/' '$pv_dir/state/history.jsonl'" 10
ok $? "the history names the console that answered"

# A console that stops reading is no reason to wait: a third console
# attaches and never reads while the first floods; the first goes on, and
# the third, reading at last, gets whole frames ending in what is shown.
python3 - "$sock" > "$pv_dir/stall.out" 2>&1 <<'PY' &
import json, socket, struct, sys, time
s = socket.socket(socket.AF_UNIX)
s.connect(sys.argv[1])
s.sendall(b'{"op":"hello","version":1}\n{"op":"attach","id":"a","term":"xterm","cols":80,"rows":24}\n')
buf = b""
while buf.count(b"\n") < 2:
    buf += s.recv(4096)
hello, attached, rest = buf.split(b"\n", 2)
assert json.loads(attached)["event"] == "attached", attached
print("attached", flush=True)
time.sleep(6)                      # the flood happens while we do not read
buf = rest
s.settimeout(5)
frames = 0
out = b""
try:
    while True:
        while len(buf) >= 5:
            t, n = buf[0:1], struct.unpack(">I", buf[1:5])[0]
            if len(buf) < 5 + n:
                break
            assert t == b"o", t
            out += buf[5:5 + n]
            buf = buf[5 + n:]
            frames += 1
        if b"flood-42-end" in out:
            break
        d = s.recv(65536)
        if not d:
            break
        buf += d
except socket.timeout:
    pass
print("frames", frames, "done" if b"flood-42-end" in out else "missing", flush=True)
PY
stall=$!
cleanup_pid $stall
wait_for "grep -q attached '$pv_dir/stall.out'" 10
ok $? "a third console attaches and stops reading"
pv_type "seq 1 200000; echo flood-\$((6*7))-end"; pv_keys Enter
pv_see "flood-42-end" 30; ok $? "the first console goes on meanwhile"
wait "$stall"
grep -q "done" "$pv_dir/stall.out"
ok $? "the third reads at last: whole frames, up to what is shown now"
diag "$(cat "$pv_dir/stall.out")"

# Read-only: watch, never type, approve or start.
pv2_keys C-g d
pv2_see "[detached from"; ok $? "the second console detaches"
pv2_type "$PTYVISOR attach -r"; pv2_keys Enter
pv2_see "flood-42-end"; ok $? "attach -r shows the console"
pv2_type "echo typed-by-watcher"; pv2_keys Enter
pv2_see "read-only console"; ok $? "a watcher's keys are refused, with a word"
sleep 0.5
! pv_cap | grep -q "typed-by-watcher"; ok $? "and reach no session"
nsess=$($PTYVISOR ls --socket "$sock" | grep -c '^  #')
pv2_keys C-g c
sleep 0.5
is "$($PTYVISOR ls --socket "$sock" | grep -c '^  #')" "$nsess" \
    "a watcher starts no session"
ag_run "$PTYVISOR exec -- touch '$pv_dir/never'; echo agrc2=\$?"
pv2_see "1 PENDING"; ok $? "a watcher sees a waiting request"
pv2_keys C-g a
sleep 0.5
! pv2_cap | grep -q 'approve request'; ok $? "but cannot open the prompt"
pv_keys C-g a
pv_see 'approve request'; ok $? "the first console can"
pv_keys n
pv_see 'Enter deny'
pv_keys Enter
ag_see "agrc2=126"; ok $? "denied there"
[ ! -e "$pv_dir/never" ]; ok $? "and nothing ran"
pv2_keys C-g d
pv2_see "[detached from"; ok $? "a watcher detaches"

# Quitting with sessions running asks; n stays.
pv_keys C-g q
pv_see "detach (d), or kill 2 running sessions and quit? (y/n)"
ok $? "quit with sessions running asks: detach or end them"
pv_keys n
wait_for "! pv_cap | grep -qF 'detach (d)'" 10; ok $? "n keeps the console"

# Another server by name, as tmux -L (ended at exit if the test fails).
cleanup_cmd "env -u XDG_RUNTIME_DIR -u PTYVISOR_SOCKET $PTYVISOR kill-server -L other-$$ > /dev/null 2>&1"
pv2_type "$PTYVISOR -L other-$$ -- sh -c 'echo in-\$((2+3))-other; exec sleep 300'"
pv2_keys Enter
pv2_see "in-5-other"; ok $? "-L NAME starts a second server"
# (The consoles' environment has no $XDG_RUNTIME_DIR: nor do these.)
noxdg="env -u XDG_RUNTIME_DIR -u PTYVISOR_SOCKET"
$noxdg $PTYVISOR ls > "$pv_dir/ls2" 2>&1
other=$(sed -n "s|^\\(/[^:]*/other-$$\\.sock\\): pid .*|\\1|p" "$pv_dir/ls2")
[ -n "$other" ]; ok $? "ls lists it in the sockets' directory ($other)"
[ -n "$other" ] || diag "ls said: $(cat "$pv_dir/ls2")"
$noxdg $PTYVISOR kill-server -L "other-$$"
is "$?" 0 "kill-server -L NAME ends it"
pv2_see "[server exited]"; ok $? "and its console hears so"
[ -n "$other" ] && [ ! -e "$other" ]; ok $? "its socket is removed"

# kill-server: sessions end, recordings are flushed, the console hears it.
$PTYVISOR kill-server --socket "$sock"
is "$?" 0 "kill-server ends the server"
kill -0 "$spid" 2> /dev/null; ok $(( ! $? )) "the server is gone"
kill -0 "$s1" 2> /dev/null; ok $(( ! $? )) "and its sessions"
pv_see "[server exited]"; ok $? "the attached console says so"
pv_see "rc3=0"; ok $? "with exit status 0"
grep -q '"session":1,' "$pv_dir/state/history.jsonl" ||
    grep -q '"id":1,' "$pv_dir/state/history.jsonl"
ok $? "the session is in the history"
grep -q 'mark-42' "$pv_dir/state/sessions/"*1*.cast 2>/dev/null ||
    grep -rq 'mark-42' "$pv_dir/state/sessions/"
ok $? "its recording holds its output"
[ ! -e "$sock" ]; ok $? "the socket is removed"

done_testing
