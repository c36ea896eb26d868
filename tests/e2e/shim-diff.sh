#!/bin/sh
# ptyvisor-sh -c against sh -c: the same snippets, the same stdin, stdout and
# stderr captured apart; both streams and the status must be equal.
#
# Known and intended differences, not in the table (doc/protocol.md, §10):
# - the sandbox: its own PID namespace ($$, ps), no network unless asked,
#   writes only under the workspace and /tmp, its rlimits;
# - the environment keeps TERM=xterm-256color (the session's terminal is
#   ptyvisor's emulator), PTYVISOR_SESSION, and drops LD_* and the other
#   variables the sandbox keeps out;
# - /dev/tty is the session's terminal (the person's console), even when
#   the caller has none;
# - processes the command leaves running are killed when it ends;
# - a closed stdin, stdout or stderr arrives as /dev/null;
# - stdin is a pipe for the command even when the caller's is a file: what
#   it did not read of a file is given back, but a program that would seek
#   back itself (head -n 1 on a file) reads a pipe's whole chunk; from a
#   pipe the shim reads up to 256 KiB ahead of the command, which a later
#   reader of the same pipe does not get.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
mkdir -p "$T/config" "$T/bin" "$T/work"
ln -s "$(command -v $PTYVISOR)" "$T/bin/ptyvisor-sh"
SHIM="$T/bin/ptyvisor-sh"

$PTYVISOR serve --approval never 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10; ok $? "serve listens"

# Inputs: a few lines without a final newline, and several MiB of bytes.
printf 'one\ntwo\tTAB\n\nlast line, no newline' > "$T/in.txt"
head -c 6000000 /dev/urandom > "$T/big"
export DIFF_VAR='set: with  spaces and * glob'
umask 027

# Run "$@" with the stdin a row asks for.
with_stdin() {
	_k=$1
	shift
	case $_k in
	null)	"$@" < /dev/null ;;
	pipe)	printf 'alpha\nbeta\ngamma\n' | "$@" ;;
	file)	"$@" < "$T/in.txt" ;;
	big)	"$@" < "$T/big" ;;
	bigpipe) cat "$T/big" | "$@" ;;
	esac
}

# Compare one snippet; says which part differs.
compare() {
	_k=$1 _s=$2
	(cd "$T/work" && with_stdin "$_k" timeout 60 sh -c "$_s") \
	    > "$T/o1" 2> "$T/e1"
	_r1=$?
	(cd "$T/work" && with_stdin "$_k" timeout 60 "$SHIM" -c "$_s") \
	    > "$T/o2" 2> "$T/e2"
	_r2=$?
	_what=
	cmp -s "$T/o1" "$T/o2" || _what="$_what stdout"
	cmp -s "$T/e1" "$T/e2" || _what="$_what stderr"
	[ "$_r1" = "$_r2" ] || _what="$_what status($_r1 vs $_r2)"
	if [ -z "$_what" ]; then
		ok 0 "[$_k] $_s"
	else
		ok 1 "[$_k] $_s: differs in$_what"
		diag "sh stdout: $(head -c 200 "$T/o1" | od -c | head -3)"
		diag "shim stdout: $(head -c 200 "$T/o2" | od -c | head -3)"
		diag "sh stderr: $(head -c 200 "$T/e1")"
		diag "shim stderr: $(head -c 200 "$T/e2")"
	fi
}

TAB=$(printf '\t')
n=0
while IFS="$TAB" read -r kind snippet; do
	case $kind in ''|'#'*) continue ;; esac
	n=$((n + 1))
	compare "$kind" "$snippet"
done <<'ROWS'
# stdin	snippet
null	echo hello
null	printf abc
null	printf 'no final newline\nsecond'
null	printf 'a\tb\t\tc\n'
null	printf 'a\000b\000\000c'
null	i=0; while [ $i -lt 256 ]; do printf "\\$(printf %o $i)"; i=$((i+1)); done
null	printf '\033[31mred\033[0m\n'
null	printf 'carriage\rreturn\r\n'
null	head -c 100000 /dev/zero | tr '\000' x
null	head -c 3000 /dev/zero | tr '\000' '{'; echo
null	echo out; echo err >&2
null	echo only-err >&2
null	echo a; echo b >&2; echo c; echo d >&2
null	(echo a; sleep 0.1; echo b >&2; sleep 0.1; echo c)
null	exit 3
null	exit 255
null	false
null	kill -TERM $$
null	kill -KILL $$
null	kill -INT $$
null	kill -HUP $$
null	trap 'echo trapped' EXIT; exit 4
null	no-such-command-xyz
null	cat /no/such/file
null	seq 1 200000
null	seq 1 100000 | tail -n 1
null	yes | head -n 50000 | wc -l
null	cat
null	cat; echo after
null	wc -c
null	read x; echo "read: $? [$x]"
null	[ -t 0 ] && echo tty || echo notty
null	[ -t 1 ] && echo tty || echo notty
null	[ -t 2 ] && echo tty >&2 || echo notty >&2
null	tty; echo "status $?"
null	pwd
null	umask
null	echo "$DIFF_VAR"
null	env | grep '^DIFF_VAR='
null	echo "$HOME"
null	echo $# "$0"
null	sleep 0.3; echo late
null	exec >&-; echo gone
pipe	wc -l
pipe	cat
pipe	read x; echo "got [$x]"; cat
pipe	echo before; cat; echo after
pipe	echo before >&2; sleep 0.2; tr a-z A-Z
pipe	head -n 1
pipe	python3 -c 'import sys; sys.stdout.write(sys.stdin.read()[::-1])'
pipe	[ -t 0 ] && echo tty || echo notty
file	cat
file	wc -l
file	while IFS= read -r l; do printf '<%s>\n' "$l"; done
file	cat; echo "[end]"
big	md5sum
big	wc -c
big	cat
big	head -c 10
bigpipe	md5sum
bigpipe	od | tail -n 2
bigpipe	cat >/dev/null; echo read all
ROWS
[ "$n" -ge 40 ]; ok $? "the table has at least 40 snippets ($n)"

# sh -c STRING NAME ARGS: $0 and the positional parameters.
(cd "$T/work" && sh -c 'echo "$0|$1|$2|$#"' name 'a b' c) > "$T/o1" < /dev/null
(cd "$T/work" && "$SHIM" -c 'echo "$0|$1|$2|$#"' name 'a b' c) > "$T/o2" \
    < /dev/null
cmp -s "$T/o1" "$T/o2"; ok $? "\$0 and arguments after the string ($(cat "$T/o2"))"

# A stdin file is left where the command left it: what the shim read ahead
# for it and it did not read is given back (a `while read` loop keeps its
# lines; a shell's `read` takes one line).
loop() {
	while IFS= read -r l; do "$1" -c 'echo "got [$0]"' "$l"; done
}
(cd "$T/work" && loop sh < "$T/in.txt") > "$T/o1" 2>&1
(cd "$T/work" && loop "$SHIM" < "$T/in.txt") > "$T/o2" 2>&1
cmp -s "$T/o1" "$T/o2"; ok $? "a while-read loop over a file runs each line once ($(wc -l < "$T/o2") lines)"
(cd "$T/work" && { sh -c 'read x; echo "cmd: $x"'; cat; } < "$T/in.txt") \
    > "$T/o1" 2>&1
(cd "$T/work" && { "$SHIM" -c 'read x; echo "cmd: $x"'; cat; } < "$T/in.txt") \
    > "$T/o2" 2>&1
cmp -s "$T/o1" "$T/o2"; ok $? "after the command, the caller reads on where it stopped"

# Stdout and stderr one file (`> log 2>&1`, `2>&1 | cat`): what the command
# writes to the two lands in the order written, as under sh -c (two pipes
# read apart would put each stream's lines together).
mix='i=0; while [ $i -lt 300 ]; do echo "out $i"; echo "err $i" >&2; i=$((i+1)); done; printf tail >&2'
(cd "$T/work" && sh -c "$mix") > "$T/mix" 2>&1 < /dev/null
(cd "$T/work" && "$SHIM" -c "$mix") > "$T/o2" 2>&1 < /dev/null
cmp -s "$T/mix" "$T/o2"
ok $? "> file 2>&1: the two streams interleaved as written ($(wc -l < "$T/o2") lines)"
(cd "$T/work" && "$SHIM" -c "$mix" 2>&1 < /dev/null | cat) > "$T/o2"
cmp -s "$T/mix" "$T/o2"; ok $? "2>&1 | cat: the same"
(cd "$T/work" && sh -c "$mix" 2>&1 >/dev/null < /dev/null | cat) > "$T/o1"
(cd "$T/work" && "$SHIM" -c "$mix" 2>&1 >/dev/null < /dev/null | cat) > "$T/o2"
cmp -s "$T/o1" "$T/o2"; ok $? "2>&1 >/dev/null: stderr alone still ($(wc -l < "$T/o2") lines)"
# Two open files of one path, both appending: not one file for the shim;
# every byte of both streams arrives, each full line whole (in an order no
# one promises: the unfinished "tail" may land between two lines).
: > "$T/o2"
(cd "$T/work" && "$SHIM" -c "$mix" >> "$T/o2" 2>> "$T/o2" < /dev/null)
sed 's/tail//' "$T/mix" | sort > "$T/o1s"
sed 's/tail//' "$T/o2" | sort > "$T/o2s"
[ "$(wc -c < "$T/o2")" = "$(wc -c < "$T/mix")" ] && cmp -s "$T/o1s" "$T/o2s"
ok $? ">> f 2>> f: every byte of both streams, each line whole"

# A reader that leaves early: the command is stopped as by SIGPIPE.
out=$("$SHIM" -c 'seq 1 10000000' < /dev/null | head -n 2 | tr '\n' ' ')
is "$out" "1 2 " "a reader that leaves early gets the first lines"

# The person sees both streams: the recording has them as a terminal shows.
"$SHIM" -c 'echo to-out; echo to-err >&2' > /dev/null 2>&1 < /dev/null
cast=$(ls -t "$T/state/sessions/"*.cast | head -n 1)
grep -q 'to-out\\r\\n' "$cast" && grep -q 'to-err\\r\\n' "$cast"
ok $? "the recording shows both streams, each line ending in \\r\\n"

done_testing
