#!/bin/sh
# cgroup2-init.sh - PID 1 of the virtual machine cgroup2-vm.sh boots: a pure
# cgroup v2 hierarchy with memory and pids handed down, ptyvisor run in it
# as root from the root cgroup, as root from a leaf below a cgroup that
# hands both controllers on (as under systemd) and below one that hands on
# memory alone, and as nobody from a subtree delegated to it.  Each result is one line "PV: ok - ...", "PV: not ok -
# ...", "PV: skip - ..." or "PV: # ..." on the serial console; "PV: done"
# last, then the machine powers off.

PATH=/bin
export PATH
/bin/busybox --install -s /bin
mount -t devtmpfs dev /dev
exec < /dev/null > /dev/ttyS0 2>&1
mount -t proc proc /proc
mount -t sysfs sys /sys
mkdir -p /dev/pts /tmp /var/tmp
mount -t devpts -o ptmxmode=0666 devpts /dev/pts
mount -t tmpfs -o mode=1777 tmpfs /tmp
mount -t tmpfs -o mode=1777 tmpfs /var/tmp
mount -t cgroup2 cgroup2 /sys/fs/cgroup

CG=/sys/fs/cgroup
PV=/bin/ptyvisor
PROBE=/bin/probe
export HOME=/root TERM=dumb
t() {	# $1: a status, 0 for ok; $2: what was checked
	if [ "$1" -eq 0 ]; then
		echo "PV: ok - $2"
	else
		echo "PV: not ok - $2"
	fi
}
diag() { echo "PV: # $*"; }
stop() { echo "PV: done"; sync; poweroff -f; }
# leftovers DIR: the session cgroups ptyvisor left in DIR, if any.
leftovers() { ls -d "$1"/ptyvisor-* 2> /dev/null; }
# oom_kills DIR: DIR's memory.events oom_kill count (its subtree's).
oom_kills() { awk '$1 == "oom_kill" { print $2 }' "$1/memory.events"; }

echo "+memory +pids" > $CG/cgroup.subtree_control
t $? "the root cgroup hands memory and pids to its children"
grep -qw memory $CG/cgroup.subtree_control || stop
diag "kernel $(uname -r), $(awk '/MemTotal/ { print $2 " kB" }' /proc/meminfo)"
mkdir -p /tmp/work /root
cd /tmp/work || stop

# says LABEL KEY PATTERN WHAT: --explain's line for KEY (in /tmp/explain.txt)
# matches PATTERN.
says() {
	line=$(grep "^  $2" /tmp/explain.txt)
	diag "$1: $line"
	case "$line" in
	$3) t 0 "$1: $4" ;;
	*) t 1 "$1: $4" ;;
	esac
}

# explain WHERE LABEL: --explain names a v2 memory cgroup made in WHERE,
# and the same as the pids cgroup.
explain() {
	"$PV" sandbox --explain -- true > /tmp/explain.txt 2>&1
	says "$2" "memory cgroup" "  memory cgroup   v2 $1/ptyvisor-*" \
		"--explain names a v2 memory cgroup in $1"
	says "$2" "pids cgroup" "  pids cgroup     $1/ptyvisor-*" \
		"--explain names the pids cgroup in $1"
}

# bounded WHERE LABEL: the memory bomb killed, the control case not.
bounded() {
	"$PV" sandbox --max-session-memory 64M -- "$PROBE" membomb=256 \
		> /tmp/bomb.out 2> /tmp/bomb.err
	st=$?
	[ $st -eq 137 ]
	t $? "$2: a 256 MiB bomb under --max-session-memory 64M is killed (status $st)"
	! grep -q allowed /tmp/bomb.out
	t $? "$2: the bomb did not get its 256 MiB"
	grep -q 'killed: memory limit' /tmp/bomb.err
	t $? "$2: sandbox says why ($(cat /tmp/bomb.err))"
	out=$("$PV" sandbox --max-session-memory 64M -- "$PROBE" membomb=32)
	st=$?
	[ $st -eq 0 ] && [ "$out" = "membomb=32 allowed" ]
	t $? "$2: 32 MiB under the same 64M bound runs (status $st: $out)"
	[ -z "$(leftovers "$1")" ]
	t $? "$2: no session cgroup left in $1 ($(leftovers "$1"))"
}

# running WHERE: a session under --max-session-memory 64M --max-procs 50
# sleeping 3 s in the background (pid in $sb), its cgroup in WHERE ($dir).
running() {
	"$PV" sandbox --max-session-memory 64M --max-procs 50 -- sleep 3 &
	sb=$!
	n=0
	while [ -z "$(leftovers "$1")" ] && [ $n -lt 100 ]; do
		sleep 0.05
		n=$((n + 1))
	done
	sleep 0.3
	dir=$(leftovers "$1" | head -n 1)
}

# --- root, in the root cgroup (a container's root with its own namespace) ---
explain $CG "root cgroup"
bounded $CG "root cgroup"

# --- root, in a leaf whose parent hands the controllers on (systemd) --------
mkdir $CG/pv $CG/pv/leaf
echo "+memory +pids" > $CG/pv/cgroup.subtree_control
echo $$ > $CG/pv/leaf/cgroup.procs
t $? "the test moves into the leaf cgroup /pv/leaf"
explain $CG/pv "leaf"
running $CG/pv
diag "leaf: the running session's cgroup: $dir"
[ "$(cat "$dir/memory.max" 2> /dev/null)" = 67108864 ]
t $? "leaf: the session's memory.max is 64 MiB ($(cat "$dir/memory.max"))"
[ "$(cat "$dir/memory.swap.max" 2> /dev/null)" = 0 ]
t $? "leaf: its memory.swap.max is 0 ($(cat "$dir/memory.swap.max"))"
[ "$(cat "$dir/pids.max" 2> /dev/null)" = 50 ]
t $? "leaf: its pids.max is 50 ($(cat "$dir/pids.max"))"
[ -n "$(cat "$dir/cgroup.procs" 2> /dev/null)" ]
t $? "leaf: the command runs in it"
[ "$(leftovers $CG/pv | wc -l)" -eq 1 ]
t $? "leaf: one cgroup for the session ($(leftovers $CG/pv | tr '\n' ' '))"
wait $sb
before=$(oom_kills $CG/pv)
bounded $CG/pv "leaf"
after=$(oom_kills $CG/pv)
[ "$after" -gt "$before" ]
t $? "leaf: memory.events counted the OOM kill ($before -> $after)"

export PTYVISOR_STATE_DIR=/tmp/state
"$PV" run --max-session-memory 64M -- "$PROBE" membomb=256 > /dev/null 2>&1
st=$?
[ $st -eq 137 ]
t $? "run: a session over its memory bound is killed (status $st)"
"$PV" history > /tmp/hist.txt 2>&1
diag "history: $(tail -n 1 /tmp/hist.txt)"
grep -q 'memory limit' /tmp/hist.txt
t $? "run: its history says memory limit"
tail -n 1 /tmp/state/history.jsonl | grep -q '"error": *"memory limit"'
t $? "run: history.jsonl records the memory limit"
"$PV" run --max-session-memory 64M -- "$PROBE" membomb=32 > /dev/null 2>&1
t $? "run: a session under its bound ends well"
[ -z "$(leftovers $CG/pv)$(leftovers $CG)" ]
t $? "run: no session cgroup left"
unset PTYVISOR_STATE_DIR

# --- the leaf's own bounds (a service's TasksMax, MemoryMax) ---------------
# The session's cgroup is made beside the leaf, out of its bounds: the
# smaller of them are carried over.
echo 40 > $CG/pv/leaf/pids.max
echo 50331648 > $CG/pv/leaf/memory.max
"$PV" sandbox --max-session-memory 64M --max-procs 50 --explain -- true \
	> /tmp/explain.txt 2>&1
says "leaf bounds" "pids cgroup" \
	"  pids cgroup     $CG/pv/ptyvisor-*, pids.max 40: the bound of *" \
	"--explain: pids.max 40, the bound of the leaf left behind"
says "leaf bounds" "memory cgroup" \
	"  memory cgroup   v2 $CG/pv/ptyvisor-*, memory.max 50331648: *" \
	"--explain: memory.max 48 MiB, the leaf's"
running $CG/pv
[ "$(cat "$dir/pids.max" 2> /dev/null)" = 40 ]
t $? "leaf bounds: the session's pids.max is the leaf's 40 ($(cat "$dir/pids.max"))"
[ "$(cat "$dir/memory.max" 2> /dev/null)" = 50331648 ]
t $? "leaf bounds: its memory.max is the leaf's 48 MiB ($(cat "$dir/memory.max"))"
wait $sb
echo max > $CG/pv/leaf/pids.max
echo max > $CG/pv/leaf/memory.max

# --- root, below a cgroup that hands on memory but not pids ----------------
# A process is in one v2 cgroup only: the memory bound is kept, within the
# cgroup that hands it on, and the process count is said to be unbounded.
mkdir $CG/mo $CG/mo/leaf
echo +memory > $CG/mo/cgroup.subtree_control
echo $$ > $CG/mo/leaf/cgroup.procs
"$PV" sandbox --explain -- true > /tmp/explain.txt 2>&1
says "memory only" "memory cgroup" "  memory cgroup   v2 $CG/mo/ptyvisor-*" \
	"the memory cgroup is made in $CG/mo"
says "memory only" "pids cgroup" "*unavailable: process count NOT bounded*" \
	"--explain says the process count is not bounded"
"$PV" sandbox --max-session-memory 64M -- "$PROBE" membomb=256 \
	> /dev/null 2> /tmp/bomb.err
st=$?
[ $st -eq 137 ] && grep -q 'killed: memory limit' /tmp/bomb.err
t $? "memory only: the bomb is killed for its memory (status $st)"
[ -z "$(leftovers $CG/mo)$(leftovers $CG)" ]
t $? "memory only: no session cgroup left"

# --- nobody, in a subtree delegated to it (a systemd user manager's) --------
mkdir $CG/user $CG/user/leaf
echo "+memory +pids" > $CG/user/cgroup.subtree_control
chown 65534:65534 $CG/user $CG/user/cgroup.procs $CG/user/cgroup.threads \
	$CG/user/cgroup.subtree_control
chown -R 65534:65534 $CG/user/leaf
mkdir -p /tmp/nobody
chown 65534:65534 /tmp/nobody
nobody() {	# the command as nobody, from the delegated subtree's leaf
	sh -c 'echo $$ > /sys/fs/cgroup/user/leaf/cgroup.procs &&
		exec su -s /bin/sh nobody -c "cd /tmp/nobody &&
		HOME=/tmp/nobody PTYVISOR_STATE_DIR=/tmp/nobody/state exec $*"' \
		sh "$@"
}
nobody "$PV" sandbox --explain -- true > /tmp/explain.txt 2>&1
says nobody "memory cgroup" "  memory cgroup   v2 $CG/user/ptyvisor-*" \
	"--explain names a v2 memory cgroup in the delegated $CG/user"
says nobody "pids cgroup" "  pids cgroup     $CG/user/ptyvisor-*" \
	"the pids cgroup is the same one"
nobody "$PV" sandbox --max-session-memory 64M -- "$PROBE" membomb=256 \
	> /tmp/bomb.out 2> /tmp/bomb.err
st=$?
[ $st -eq 137 ] && grep -q 'killed: memory limit' /tmp/bomb.err
t $? "nobody: the bomb is killed for its memory (status $st, $(cat /tmp/bomb.err))"
out=$(nobody "$PV" sandbox --max-session-memory 64M -- "$PROBE" membomb=32)
t $? "nobody: 32 MiB under the bound runs ($out)"
[ -z "$(leftovers $CG/user)" ]
t $? "nobody: no session cgroup left in $CG/user"
stop
