#!/bin/sh
# bounds.sh - what sessions leave on disk is bounded: a recording past its
# cap (--max-recording, [record] max_recording) keeps its head, a marker
# saying how many bytes were left out and its tail, and still plays
# (asciinema cat, ptyvisor replay), while the command's output is not cut;
# history and show say so; the state directory's budget ([record]
# state_budget) prunes the oldest recordings as sessions end, never a
# history line; gc --dry-run lists what would go and removes nothing; the
# server raises its open-file limit for many sessions, not its commands'.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
mkdir -p "$T/config"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
cast() { python3 "$top_srcdir/tests/e2e/castdata.py" "$@"; }
S="$T/state/sessions"
# The JSON field $2 of the history line of session $1 ("-" when absent).
hist_field() {
	"$PTYVISOR" history --json | python3 -c '
import json, sys
for line in sys.stdin:
    e = json.loads(line)
    if e["id"] == int(sys.argv[1]):
        print(e.get(sys.argv[2], "-"))' "$1" "$2"
}
size() { wc -c < "$1" | tr -d ' '; }
MIB=1048576

# --- a runaway under a 1 MiB cap ----------------------------------------
# yes writes y\n; the terminal makes it y\r\n: 7,500,000 bytes in all.
"$PTYVISOR" run --max-recording 1M -- sh -c 'yes | head -c 5000000' \
    > "$T/out" < /dev/null
is "$?" 0 "run --max-recording 1M of 5 MB of output exits 0"
is "$(size "$T/out")" 7500000 "the command's output is not cut (7500000 bytes)"
sz=$(size "$S/1.cast")
[ "$sz" -le $MIB ] && [ "$sz" -gt $((MIB * 3 / 4)) ]
ok $? "the recording stays within its cap ($sz bytes)"
[ ! -e "$S/1.cast.tail" ]; ok $? "the tail file is gone once the session ended"
marks=$(python3 -c '
import json, sys
f = open(sys.argv[1], encoding="utf-8"); f.readline()
ev = [json.loads(l) for l in f]
print("|".join(e[2] for e in ev if e[1] == "m"))' "$S/1.cast")
gap=${marks%%|*}
case $gap in
"ptyvisor: "*" bytes of output not recorded (recording cap 1024 KiB: its head and tail are kept)")
	ok 0 "a marker between head and tail: $gap" ;;
*)	ok 1 "a marker between head and tail (got: $marks)" ;;
esac
is "${marks#*|}" "exit 0" "then the exit marker, last"
dropped=$(printf '%s\n' "$gap" | sed 's/^ptyvisor: \([0-9]*\) bytes.*/\1/')
kept=$(cast "$S/1.cast" | wc -c | tr -d ' ')
is "$((kept + dropped))" 7500000 "output kept ($kept) + left out ($dropped) is all of it"
cast "$S/1.cast" | head -c 30 > "$T/head"
printf 'y\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r\ny\r\n' > "$T/want"
cmp -s "$T/head" "$T/want"; ok $? "the head is the start of the output"
cast "$S/1.cast" | tail -c 30 | cmp -s - "$T/want"
ok $? "the tail is its end"
is "$(hist_field 1 recording_dropped)" "$dropped" \
    "history --json: recording_dropped is the marker's count"
"$PTYVISOR" history | grep '^ *1 ' | grep -q '(recording capped)$'
ok $? "history says the recording was capped"
"$PTYVISOR" show 1 > "$T/show1"
grep -q "^capped: *$dropped bytes of output not recorded" "$T/show1"
ok $? "show says how many bytes were not recorded"

# --- it still plays ------------------------------------------------------
if command -v asciinema > /dev/null && command -v script > /dev/null; then
	script -qec "asciinema cat '$S/1.cast'" /dev/null > "$T/acat" 2>&1
	rc=$?
	[ $rc -eq 0 ] && head -c 30 "$T/acat" | cmp -s - "$T/want"
	ok $? "asciinema cat plays it (exit $rc, $(size "$T/acat") bytes)"
else
	skip "asciinema or script not installed"
fi
"$PTYVISOR" replay --text 1 > "$T/replay"
is "$?" 0 "ptyvisor replay plays it"
is "$(tail -n 1 "$T/replay")" "y" "to the end of its tail"

# --- the cap from the settings file, the option beating it --------------
printf '[record]\nmax_recording = 512K\n' > "$T/config/config"
"$PTYVISOR" run -- sh -c 'yes | head -c 3000000' > /dev/null < /dev/null
sz=$(size "$S/2.cast")
[ "$sz" -le 524288 ] && [ "$sz" -gt 393216 ]
ok $? "[record] max_recording = 512K caps it ($sz bytes)"
"$PTYVISOR" run --max-recording 2M -- sh -c 'yes | head -c 3000000' \
    > /dev/null < /dev/null
sz=$(size "$S/3.cast")
[ "$sz" -le $((2 * MIB)) ] && [ "$sz" -gt $((MIB * 3 / 2)) ]
ok $? "--max-recording 2M beats it ($sz bytes)"
"$PTYVISOR" run -- echo small > /dev/null < /dev/null
is "$(cast --marker "$S/4.cast")" "exit 0" "under the cap: no gap marker"
is "$(hist_field 4 recording_dropped)" "-" "and no recording_dropped"
"$PTYVISOR" run --max-recording 1K -- true > "$T/bad.out" 2> "$T/bad.err"
is "$?" 125 "--max-recording below 64K is refused"
grep -q "max-recording: '1K' is not a size of at least 64K" "$T/bad.err"
ok $? "naming the option and the minimum"

# --- the state directory's budget --------------------------------------
# 1 (1M), 2 (512K), 3 (2M) and 4 are there, 5 (512K) comes: 4 MiB.  A
# budget of 3500K: its end removes the oldest, 1 (and its exec log).
printf '[record]\nmax_recording = 512K\nstate_budget = 3500K\n' \
    > "$T/config/config"
"$PTYVISOR" run -- sh -c 'yes | head -c 1000000' > /dev/null < /dev/null
is "$?" 0 "a fifth session under a 3500K budget"
[ ! -e "$S/1.cast" ] && [ ! -e "$S/1.exec.jsonl" ]
ok $? "the oldest recording and its log were pruned"
[ -e "$S/2.cast" ] && [ -e "$S/3.cast" ] && [ -e "$S/5.cast" ]
ok $? "the newer ones stay"
is "$(cat "$T/state/pruned")" 1 "pruned lists session 1"
is "$("$PTYVISOR" history --json | wc -l | tr -d ' ')" 5 "every history line stays"
"$PTYVISOR" history | grep '^ *1 ' | grep -q '(recording pruned)$'
ok $? "history says recording pruned"
is "$(hist_field 1 recording_pruned)" True "history --json says recording_pruned"
"$PTYVISOR" show 1 > "$T/show1p"
is "$?" 0 "show 1 exits 0"
grep -q '^recording: .*1.cast (recording pruned)$' "$T/show1p" &&
    grep -q '^(recording pruned' "$T/show1p"
ok $? "show says recording pruned"

# --- gc --------------------------------------------------------------------
printf '[record]\nstate_budget = 1M\n' > "$T/config/config"
"$PTYVISOR" gc --dry-run > "$T/gc.dry"
is "$?" 0 "gc --dry-run exits 0"
grep -q '^would remove session 2: ' "$T/gc.dry" &&
    grep -q '^would remove session 3: ' "$T/gc.dry"
ok $? "gc --dry-run lists the oldest: $(head -n 1 "$T/gc.dry")"
[ -e "$S/2.cast" ] && [ -e "$S/3.cast" ]; ok $? "and removes nothing"
"$PTYVISOR" gc > "$T/gc.out"
is "$?" 0 "gc exits 0"
[ ! -e "$S/2.cast" ] && [ ! -e "$S/3.cast" ] && [ -e "$S/5.cast" ]
ok $? "gc removes what --dry-run listed, the newest stays"
is "$("$PTYVISOR" history --json | wc -l | tr -d ' ')" 5 "history lines all kept"
"$PTYVISOR" run -- echo next > /dev/null < /dev/null
is "$(hist_field 6 state)" exited "the next session gets a new id (6)"
"$PTYVISOR" gc --help > "$T/gc.help"
is "$?" 0 "gc --help exits 0"
"$PTYVISOR" gc --bogus > /dev/null 2>&1
is "$?" 125 "gc refuses an unknown option"

# --- a ptyvisor killed past half the cap: the next start finishes it -----
"$PTYVISOR" run --max-recording 64K -- \
    sh -c 'yes | head -c 400000; echo END-OF-OUTPUT; sleep 60' \
    > /dev/null < /dev/null &
RUN=$!
cleanup_pid $RUN
# Its tail file's index (the first line) counts bytes given up already;
# killed once all of the output is in the tail (not in the middle of it).
# The output is read from the tail's events, its segments in the ring's
# order (tailtext): a line of output may be cut between two events (a read
# of the terminal holds it with what came before, and events past the
# head carry at most an eighth of a segment), so the file's bytes need not
# hold it whole.
tailtext() {
	python3 -c '
import json, sys
INDEX = 1024			# record.c: RECORD_INDEX
f = open(sys.argv[1], "rb")
v = f.readline().split()
seg_size, cur = int(v[3]), int(v[4])
if int(v[5]) == 0:
    sys.exit(1)			# nothing given up yet
out = []
for i in range(1, 9):		# RECORD_SEGMENTS, the oldest first
    k = (cur + i) % 8
    used = int(v[9 + 5 * k])
    f.seek(INDEX + k * seg_size)
    for line in f.read(used).decode("utf-8").splitlines():
        e = json.loads(line)
        if e[1] == "o":
            out.append(e[2])
sys.stdout.write("".join(out))' "$1"
}
wait_for "tailtext '$S/7.cast.tail' | grep -q END-OF-OUTPUT" 20
ok $? "a capped session past its head keeps its tail in 7.cast.tail"
"$PTYVISOR" show 7 2> /dev/null | grep -q '^capped: *past half its cap: the output since is in .*7.cast.tail'
ok $? "show of the running session says where its tail is"
kill -9 $RUN
wait $RUN 2> /dev/null
"$PTYVISOR" run -- true > /dev/null < /dev/null
is "$(hist_field 7 state)" lost "the next start records the killed one as lost"
[ ! -e "$S/7.cast.tail" ]; ok $? "its tail file is merged and gone"
marks=$(python3 -c '
import json, sys
f = open(sys.argv[1], encoding="utf-8"); f.readline()
ev = [json.loads(l) for l in f]
print("|".join(e[2].split(" bytes")[0] for e in ev if e[1] == "m"))' "$S/7.cast")
dropped=$(hist_field 7 recording_dropped)
case $dropped in ''|*[!0-9]*) dropped=0 ;; esac	# absent: counted as none
is "$marks" "ptyvisor: $dropped|server died" \
    "its recording: head, the gap marker ($dropped bytes, as its history line says), tail, server died"
kept=$(cast "$S/7.cast" | wc -c | tr -d ' ')
# 200,000 "y\r\n" and the end line: 600,015 bytes of output in all.
[ "$((kept + dropped))" -le 600015 ] && [ "$(size "$S/7.cast")" -le 65536 ]
ok $? "within its cap, nothing counted twice ($kept kept, $dropped left out)"
printf 'y\r\ny\r\ny\r\ny\r\ny\r\ny\r\nEND-OF-OUTPUT\r\n' > "$T/want7"
cast "$S/7.cast" | tail -c "$(size "$T/want7")" | cmp -s - "$T/want7"
ok $? "its tail is the output's"

# --- the server's open files --------------------------------------------
if command -v prlimit > /dev/null && prlimit --nofile=1024:8192 true 2>/dev/null
then
	export PTYVISOR_SOCKET="$T/run/pv.sock"
	printf 'allow sh -c **\n' > "$T/config/rules"
	prlimit --nofile=1024:8192 "$PTYVISOR" serve --approval on-request \
	    2>> "$T/serve.log" < /dev/null &
	SERVE=$!
	cleanup_pid $SERVE
	wait_for "$PTYVISOR pending > /dev/null 2>&1" 20
	is "$(awk '/^Max open files/ { print $4 }' /proc/$SERVE/limits)" 4096 \
	    "serve raises its soft limit on open files to 4096 (hard 8192)"
	is "$("$PTYVISOR" exec -- sh -c 'ulimit -Sn' < /dev/null)" 1024 \
	    "an agent's command gets the limit the server had (1024)"
	# The budget is 1M: an agent's session of about 1 MB that ends has
	# the server prune the older ones (5 was the largest left), right
	# after it told the end (the exit does not wait for the scan).
	[ -e "$S/5.cast" ]; ok $? "session 5's recording is still there"
	"$PTYVISOR" exec -- sh -c 'yes | head -c 700000' > /dev/null < /dev/null
	wait_for "[ ! -e '$S/5.cast' ] && grep -qx 5 '$T/state/pruned'" 10
	ok $? "the server prunes as its sessions end"
	"$PTYVISOR" history | grep '^ *5 ' | grep -q '(recording pruned)$'
	ok $? "and history says so"
	kill $SERVE
	wait $SERVE
else
	for i in 1 2 3 4 5; do
		skip "prlimit cannot set the open-file limit here"
	done
fi
done_testing
