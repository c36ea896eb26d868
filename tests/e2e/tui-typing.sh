#!/bin/sh
# Typing into a pane while agents' requests arrive: nothing is approved,
# denied, edited or deferred by keys meant for the pane, and every key
# reaches the pane.  The pane runs `cat > FILE`, so FILE holds exactly what
# arrived.  Lines are typed a key at a time at a person's speed, full of the
# prompt's own keys (y a n e, Enter, Escape, Tab); requests arrive before,
# during and after the typing, and once the person opens the prompt, puts
# the request off and types on.
. "$top_srcdir/tests/e2e/tui-lib.sh"

T=$pv_dir
mkdir -p "$T/config"
printf '[tui]\nprefix = C-b\n' > "$T/config/config"
sock="$T/run/pv.sock"

pv_start 160 48
ag_start "$sock"

# A request that waits: the agent's shell prints its status when decided.
ask() {
	ag_run "$PTYVISOR exec -- touch '$T/never-$1' < /dev/null & "
}

# Type a line a key at a time, about ten keys a second, then Enter.
human() {
	printf '%s\n' "$1" | fold -w1 | while IFS= read -r c; do
		if [ -z "$c" ]; then pv_keys Space; else pv_type "$c"; fi
		sleep 0.1
	done
	pv_keys Enter
	sleep 0.1
}

pv_type "PTYVISOR_SOCKET='$sock' PTYVISOR_CONFIG='$T/config' SHELL=$pv_dir/pvsh $PTYVISOR"
pv_keys Enter
pv_see 'pv$'; ok $? "the console starts with a shell"
wait_for "[ -S '$sock' ]" 10; ok $? "it serves the control socket"
pv_type "cat > '$T/typed'"
pv_keys Enter
sleep 0.5

# Before: a request waits when the typing starts.
ask 1
pv_see "1 PENDING: #1"; ok $? "a request waits before the person types"
human "echo hi"
human "yes"

# During: requests arrive in the middle of lines.
pv_type y
sleep 0.1
ask 2
sleep 0.3
human "es no edit"
pv_see "2 PENDING"; ok $? "a second request arrived mid-line"
pv_keys Escape
sleep 0.1
pv_keys Tab
human " after esc tab"
ask 3
human "e"
human "n"
pv_see "3 PENDING"; ok $? "a third request arrived between lines"

# The person opens the prompt on purpose, puts the request off, types on.
pv_keys C-b a
pv_see 'approve request #1?'; ok $? "the prefix then a opens the prompt"
pv_keys Escape
pv_see 'approve request #2?'; ok $? "Esc puts #1 off and shows the next"
pv_keys Escape
pv_see 'approve request #3?'
pv_keys Escape
wait_for "! pv_cap | grep -q 'approve request #'" 10
ok $? "the prompt closes once every request is put off"
human "y"
human "and a last line"

# After: a request arrives after the typing, the person ends cat.
ask 4
pv_see "4 PENDING"; ok $? "a fourth request waits"
pv_keys C-d
pv_see 'pv$'; ok $? "cat ended: the shell is back"

printf '%s\n' "echo hi" "yes" "yes no edit" " after esc tab" "e" "n" "y" \
    "and a last line" > "$T/expected"
# Escape and Tab reach the pane too (cat receives them raw).
tr -d '\033\t' < "$T/typed" > "$T/typed.text"
cmp -s "$T/expected" "$T/typed.text"
ok $? "every line typed reached the pane intact"
diag "typed: $(od -c "$T/typed" | head -8 | tr '\n' ' ')"
grep -q "$(printf '\033')" "$T/typed"; ok $? "so did Escape"
grep -q "$(printf '\t')" "$T/typed"; ok $? "and Tab"

PTYVISOR_SOCKET="$sock" timeout 10 $PTYVISOR pending > "$T/pending" 2>&1
for n in 1 2 3 4; do
	grep -q "^$n	touch $T/never-$n" "$T/pending"
	ok $? "request $n still waits"
done
ls "$T"/never-* > /dev/null 2>&1
ok $(( ! $? )) "nothing ran"
grep -E "request [0-9]+ (approved|denied)" "$T/state/ptyvisor.log" > "$T/decided"
[ ! -s "$T/decided" ]; ok $? "nothing was decided ($(head -c 200 "$T/decided"))"

# Now decide them from the shell: the agents hear the denials.
for n in 1 2 3 4; do
	PTYVISOR_SOCKET="$sock" timeout 10 $PTYVISOR deny $n > /dev/null 2>&1
done
wait_for "! pv_cap | grep -q PENDING" 10; ok $? "no request waits any more"
pv_see "0 pending"; ok $? "the status line says so"

pv_keys C-b q
pv_see "and quit?"
pv_keys y
pv_see 'outer$'; ok $? "the console quits"

done_testing
