#!/bin/sh
# help.sh - what --help says is what each command takes: every long option
# a command's --help lists is accepted by that command (given before
# --help, it is not refused as unknown), and is in the man page.
. "$top_srcdir/tests/tap.sh"

MAN="$top_srcdir/doc/ptyvisor.1"
T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/none.sock"

for c in run sandbox replay history show serve exec pending approve deny check gc \
    mcp hook console; do
	if [ $c = console ]; then
		run() { timeout 10 "$PTYVISOR" "$@"; }
		help=$(run --help-tui 2>&1)
	else
		run() { timeout 10 "$PTYVISOR" "$c" "$@"; }
		help=$(run --help 2>&1)
	fi
	is "$?" 0 "$c: its help exits 0"
	opts=$(printf '%s\n' "$help" | grep -o -- '--[a-z][a-z-]*' | sort -u)
	for o in $opts; do
		[ "$o" = --help ] && continue
		# An option shown with a VALUE anywhere takes one.
		if printf '%s\n' "$help" | grep -q -- "$o [A-Z]"; then
			out=$(run "$o" 1 --help < /dev/null 2>&1)
		else
			out=$(run "$o" --help < /dev/null 2>&1)
		fi
		case $out in
		*"unknown option"*|*"unknown argument"*)
			ok 1 "$c $o: refused: $(printf '%s' "$out" | head -1)"
			;;
		*)	ok 0 "$c $o is accepted" ;;
		esac
		grep -q -- "$(printf '%s' "$o" | sed 's/-/\\\\-/g')" "$MAN"
		ok $? "$c $o is in the man page"
	done
done
grep -q 'help\\-tui' "$MAN"; ok $? "the man page names --help-tui"
"$PTYVISOR" --help | grep -q "With no command, ptyvisor opens the console"
ok $? "--help says what plain ptyvisor does"
done_testing
