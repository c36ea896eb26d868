#!/bin/sh
# readme.sh - the README's examples run as written.  Every line of its
# example blocks that starts with "ptyvisor" is read from README.md and run
# by the shell exactly as written, with "ptyvisor" being the binary under
# test; what each needs is prepared first (a server with requests 3 and 4
# waiting, twelve recorded sessions, a demo.cast).  An example this test
# does not know how to prepare fails it, so the README cannot drift.
# The console itself (plain "ptyvisor") needs a terminal: the tui-*.sh
# tests drive it in tmux.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d "${TMPDIR:-/tmp}/pv-readme.XXXXXX")
cleanup_cmd "rm -rf '$T'"
mkdir -p "$T/bin" "$T/work" "$T/config"
ln -s "$PTYVISOR" "$T/bin/ptyvisor"
ln -s "$PTYVISOR" "$T/bin/ptyvisor-sh"
export PATH="$T/bin:$PATH" HOME="$T"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
cd "$T/work" || exit 1

# The example lines, in order: the lines starting "ptyvisor" of the code
# blocks that hold no [optional] brackets (such a block is the synopsis).
awk '/^```/ {
	if (inb && !syn) for (i = 1; i <= n; i++) print b[i]
	inb = !inb; n = 0; syn = 0; next
}
inb { if (/\[/) syn = 1; if (/^ptyvisor/) b[++n] = $0 }' \
    "$top_srcdir/README.md" > "$T/examples"
n=$(wc -l < "$T/examples")
[ "$n" -ge 10 ]; ok $? "README.md has $n example lines"

# Twelve sessions, one of them with "make" in its command line and a few
# seconds long (replay 12 --at 3.5); and a recording named demo.cast.
for i in 1 2 3 4 5 6 7 8 9 10 11; do
	ptyvisor run -- echo "session-$i" > /dev/null 2>&1 < /dev/null
done
ptyvisor run -- sh -c 'echo make started; sleep 4; echo make done' \
    > /dev/null 2>&1 < /dev/null
cp "$top_srcdir/tests/data/asciinema-rec.cast" demo.cast

# Run one example as written (its comment is the shell's).  Lines that wait
# for a person (exec) or for ever (serve &) go to the background.
run_example() {
	case $1 in
	"ptyvisor serve "*"&"*)
		sh -c "$1 echo \$! > '$T/serve.pid'" 2> "$T/serve.log"
		cleanup_pid "$(cat "$T/serve.pid")"
		wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10
		ok $? "example: $1"
		# Requests 3 and 4 for the approve and deny examples below.
		;;
	"ptyvisor exec "*)
		k=$(($(cat "$T/nexec" 2>/dev/null || echo 0) + 1))
		echo $k > "$T/nexec"
		sh -c "$1" > "$T/exec$k.out" 2>&1 < /dev/null &
		echo $! > "$T/exec$k.pid"
		cleanup_cmd "kill $! 2>/dev/null"
		# It waits for a person (pending lists request k) or is done.
		wait_for "ptyvisor pending | grep -q '^$k	' || ! kill -0 $! 2>/dev/null" 10
		ok $? "example: $1 (request $k: $(ptyvisor pending | grep "^$k	" | cut -f2))"
		;;
	"ptyvisor pending"*)
		# Two requests of ours, one after the other: 3 and 4.
		k=3
		for w in three four; do
			ptyvisor exec -- touch "made-by-$w" > /dev/null 2>&1 \
			    < /dev/null &
			echo $! > "$T/$w.pid"
			cleanup_cmd "kill $! 2>/dev/null"
			wait_for "ptyvisor pending | grep -q '^$k	'" 10
			k=4
		done
		sh -c "$1" > "$T/pending.out" 2>&1
		rc=$?
		[ $rc -eq 0 ] && grep -q "^3	touch made-by-three" "$T/pending.out" &&
		    grep -q "^4	touch made-by-four" "$T/pending.out"
		ok $? "example: $1 (exit $rc, lists requests 3 and 4)"
		;;
	"ptyvisor approve 3"*)
		sh -c "$1" > "$T/approve.out" 2>&1
		is "$?" 0 "example: $1"
		wait "$(cat "$T/three.pid")"
		is "$?" 0 "... request 3 ran (its shim exits 0)"
		[ -e made-by-three ]; ok $? "... and did its work"
		;;
	"ptyvisor deny 4"*)
		sh -c "$1" > "$T/deny.out" 2>&1
		is "$?" 0 "example: $1"
		wait "$(cat "$T/four.pid")"
		is "$?" 126 "... request 4's shim exits 126"
		;;
	"ptyvisor replay "*|"ptyvisor history"*|"ptyvisor show "*|"ptyvisor gc"*)
		sh -c "$1" > "$T/out" 2> "$T/err" < /dev/null
		rc=$?
		[ $rc -eq 0 ] && [ -s "$T/out" ]
		ok $? "example: $1 (exit $rc, $(wc -c < "$T/out") bytes)"
		;;
	"ptyvisor")
		skip "example: ptyvisor (the console needs a terminal; tui-*.sh drive it in tmux)"
		;;
	*)
		ok 1 "example: $1: this test does not know how to run it"
		;;
	esac
}

while IFS= read -r line; do
	run_example "$(printf '%s' "$line" | sed 's/  *#.*$//')"
done < "$T/examples"

# The examples' promises, checked.
grep -q "approved by user" "$T/serve.log"; ok $? "the server logged the approval"
ptyvisor history -n 20 --state exited --grep make | grep -q "make started"
ok $? "history --grep make finds the session with make in it"
ptyvisor replay 12 --text | grep -q "make done"
ok $? "replay 12 --text ends on the session's last line"
ptyvisor replay 12 --text --at 3.5 > "$T/at"
grep -q "make started" "$T/at" && ! grep -q "make done" "$T/at"
ok $? "replay 12 --text --at 3.5 shows the screen before the end"
ptyvisor show 12 | grep -q "^--- output ---"
ok $? "show 12 prints the metadata, then the output"

# What is still waiting is denied; the server stops.
for id in $(ptyvisor pending | cut -f1); do
	ptyvisor deny "$id" > /dev/null 2>&1
done
kill "$(cat "$T/serve.pid")" 2>/dev/null
done_testing
