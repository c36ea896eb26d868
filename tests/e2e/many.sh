#!/bin/sh
# many.sh - many agents at once, the short version of bench/many.sh (which
# times what this only checks): N agents' `ptyvisor exec` of a command
# printing as fast as it can, all at once, beside the console's shell
# pane a person types into.  Every client gets its session (none refused,
# none timed out waiting for the server's hello), all run at once, keys
# typed in the pane show up meanwhile, every client gets the real exit
# status; then the server's descriptors are back where they started and
# every recording kept its cap (marked capped).
. "$top_srcdir/tests/e2e/tui-lib.sh"

N=30
T=$pv_dir
mkdir -p "$T/config" "$T/ws"
printf '[record]\nmax_recording = 512K\n' > "$T/config/config"
printf 'allow timeout **\n' > "$T/config/rules"
sock="$T/run/pv.sock"

pv_start 160 48
pv_type "cd '$T/ws'; PTYVISOR_SOCKET='$sock' PTYVISOR_CONFIG='$T/config' SHELL=$pv_dir/pvsh $PTYVISOR"
pv_keys Enter
pv_see 'pv$'; ok $? "the console starts with a shell"
wait_for "[ -S '$sock' ]" 10; ok $? "the console's server listens"
srv=$(PTYVISOR_SOCKET=$sock $PTYVISOR ls --socket "$sock" |
    sed -n 's/.*: pid \([0-9]*\),.*/\1/p')
# sed's status says nothing: the pid itself, a live process.
[ -n "$srv" ] && kill -0 "$srv" 2>/dev/null
ok $? "ptyvisor ls names its server's pid: $srv"
fds() { ls "/proc/$srv/fd" | wc -l; }
# The shell's own exec log opens with its first program: before counting.
pv_type "/bin/true; echo ready-$$"
pv_keys Enter
pv_see "ready-$$"; ok $? "the shell runs a program"
wait_for "[ -s '$T/state/sessions/1.exec.jsonl' ]" 10
ok $? "and its exec log is written"
rss() { awk '/^VmRSS/ { print $2 }' "/proc/$srv/status"; }
fds0=$(fds)
diag "before: $fds0 descriptors, RSS $(rss) kB"


# N agents at once, each printing for 8 s.
i=1
pids=''
while [ $i -le $N ]; do
	(PTYVISOR_SOCKET=$sock PTYVISOR_CONFIG=$T/config timeout 120 \
	    $PTYVISOR exec --cwd "$T/ws" -- timeout 8 yes > /dev/null \
	    2> "$T/c$i.err" < /dev/null; echo $? > "$T/c$i.rc") &
	pids="$pids $!"
	i=$((i + 1))
done
running() { ls "$T/state/sessions/"*.running 2>/dev/null | wc -l; }
wait_for "[ \$(running) -gt $N ]" 60
ok $? "all $N sessions run at once, beside the shell ($(($(running) - 1)) do)"
peak=$(fds)
diag "running: $peak descriptors, RSS $(rss) kB"

# The person's pane takes keys meanwhile.
pv_type "echo typed-$$"
pv_keys Enter
pv_see "typed-$$" 60; ok $? "keys typed in the pane show up while they print"

wait $pids
bad=''
i=1
while [ $i -le $N ]; do
	[ "$(cat "$T/c$i.rc")" = 124 ] || bad="$bad $i:$(cat "$T/c$i.rc") $(head -c 200 "$T/c$i.err")"
	i=$((i + 1))
done
is "$bad" "" "every client got its session and the real exit status (124, timeout's)"

# Ended agent sessions stay in the console until closed: close them all.
wait_for "[ \$(running) -le 1 ]" 30
ok $? "they have all ended"
big=''
for f in "$T/state/sessions/"*.cast; do
	[ "$(stat -c %s "$f")" -le $((512 * 1024 + 4096)) ] || big="$big $f"
done
is "$big" "" "every recording kept its cap (512 KiB, its end marker besides)"
capped=$(grep -c '"recording_dropped"' "$T/state/history.jsonl")
[ "$capped" -ge $N ]; ok $? "and the history says so for each ($capped lines)"

# An ended session holds no descriptor, though the console still shows it.
wait_for "[ \$(fds) -le $fds0 ]" 30
ok $? "the server's descriptors are back where they started ($fds0; $(fds) now, $peak while running)"

done_testing
