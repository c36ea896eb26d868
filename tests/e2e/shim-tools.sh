#!/bin/sh
# ptyvisor-sh as the shell of the tools that run "$SHELL -c": make -j4,
# npm run with script-shell, Python's subprocess.run with input; and the
# README's lines for them, run as written from a source tree's root.
. "$top_srcdir/tests/tap.sh"

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock"
export HOME="$T/home" npm_config_cache="$T/npm-cache"
export npm_config_update_notifier=false npm_config_fund=false
mkdir -p "$T/config" "$T/home" "$T/src"
BUILD=$(dirname "$(command -v $PTYVISOR)")
SHIM="$BUILD/ptyvisor-sh"
[ -x "$SHIM" ]; ok $? "the build made ptyvisor-sh beside ptyvisor"

$PTYVISOR serve --approval never 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10; ok $? "serve listens"

# A source tree: build/ is ours; a Makefile and a package.json with tests.
ln -s "$BUILD" "$T/src/build"
cat > "$T/src/Makefile" <<'MK'
test: a.out b.out c.out d.out
	@cat a.out b.out c.out d.out
	@[ -t 1 ] && echo "stdout: a terminal" || echo "stdout: a pipe"
	@echo "MAKELEVEL=$$MAKELEVEL"
%.out:
	@echo "making $@" >&2; sleep 0.2; printf '%s\n' "$@" > $@
clean:
	@rm -f a.out b.out c.out d.out
MK
cat > "$T/src/package.json" <<'JSON'
{ "name": "t", "version": "1.0.0", "private": true,
  "scripts": { "test": "echo npm-test-ran; [ -t 1 ] && echo tty || echo pipe; echo \"$npm_lifecycle_event\"; read x; echo \"stdin: [$x]\"" } }
JSON
cd "$T/src" || exit 1

# Recordings (a session's exec log lies beside its recording).
sessions() { ls "$T/state/sessions" 2>/dev/null | grep -c '\.cast$'; }

# make -j4: the same output as with sh, each recipe line a session.
make -s clean
make -s -j4 test > "$T/make.sh.out" 2> "$T/make.sh.err" < /dev/null
make -s clean
before=$(sessions)
make -s -j4 SHELL="$SHIM" test > "$T/make.pv.out" 2> "$T/make.pv.err" < /dev/null
rc=$?
is "$rc" 0 "make -j4 SHELL=ptyvisor-sh test: exit 0"
cmp -s "$T/make.sh.out" "$T/make.pv.out"
ok $? "and the same stdout as with sh ($(tr '\n' ' ' < "$T/make.pv.out"))"
is "$(sort "$T/make.pv.err" | tr '\n' ' ')" "$(sort "$T/make.sh.err" | tr '\n' ' ')" \
    "and the same stderr lines"
is "$(($(sessions) - before))" 7 "each of the 7 recipe lines ran as a ptyvisor session"
printf 'broken:\n\t@echo about to fail; exit 4\n' > "$T/src/broken.mk"
make -s -f broken.mk SHELL="$SHIM" > "$T/o" 2> "$T/e" < /dev/null
rc=$?
[ "$rc" -ne 0 ] && grep -q "Error 4" "$T/e" && grep -q "about to fail" "$T/o"
ok $? "a failing recipe fails make with its status (make exit $rc)"

# npm run with script-shell: the same as with sh, stdin included.
if command -v npm > /dev/null 2>&1; then
	echo typed | npm run test > "$T/npm.sh.out" 2> "$T/npm.sh.err"
	rc1=$?
	before=$(sessions)
	echo typed | npm run --script-shell="$SHIM" test > "$T/npm.pv.out" \
	    2> "$T/npm.pv.err"
	rc2=$?
	is "$rc2:$rc1" "0:0" "npm run --script-shell=ptyvisor-sh test: exit 0"
	cmp -s "$T/npm.sh.out" "$T/npm.pv.out"
	ok $? "and the same stdout as with sh ($(tail -n 4 "$T/npm.pv.out" | tr '\n' ' '))"
	is "$(($(sessions) - before))" 1 "the script ran as a ptyvisor session"
else
	skip "npm run with script-shell: npm is not installed"
	skip "npm: same stdout"
	skip "npm: a session"
fi

# Python's subprocess.run with input=, as an agent's harness calls it.
python3 - "$SHIM" > "$T/py.out" 2>&1 <<'PY'
import subprocess, sys
shim = sys.argv[1]
def both(script, **kw):
    a = subprocess.run(["sh", "-c", script], capture_output=True, **kw)
    b = subprocess.run([shim, "-c", script], capture_output=True, **kw)
    same = (a.stdout, a.stderr, a.returncode) == (b.stdout, b.stderr, b.returncode)
    print("ok" if same else "DIFFERS", repr(script)[:60], b.returncode,
          len(b.stdout), len(b.stderr), b.stderr[:80])
    return same
big = bytes(range(256)) * 16384
checks = [
    both("tr a-z A-Z; echo done >&2; exit 3", input=b"hello\nworld"),
    both("cat", input=big),
    both("wc -c; cat", input=b"x" * 100000),
    both("kill -TERM $$"),
    both("[ -t 0 ] || [ -t 1 ] || [ -t 2 ] || echo no terminal", input=b""),
    both("printf 'a\\0b'; printf 'no newline' >&2"),
]
sys.exit(0 if all(checks) else 1)
PY
rc=$?
while IFS= read -r l; do diag "python: $l"; done < "$T/py.out"
is "$rc" 0 "subprocess.run([..., '-c', ...], input=...) gives what sh -c gives"

# The README's lines, as written, from this tree's root.
awk '/^The build makes `build\/ptyvisor-sh`/ { want = 1 }
want && /^```/ { if (inb) exit; inb = 1; next }
want && inb { print }' "$top_srcdir/README.md" > "$T/readme-lines"
n=$(wc -l < "$T/readme-lines")
[ "$n" -ge 4 ]; ok $? "README shows $n lines for ptyvisor-sh"
first=$(head -n 1 "$T/readme-lines")
tail -n +2 "$T/readme-lines" | while IFS= read -r line; do
	make -s clean
	echo typed | sh -c "$first; $line" > "$T/o" 2> "$T/e"
	rc=$?
	[ "$rc" -eq 0 ]
	ok $? "README: $line (exit $rc; $(tail -n 2 "$T/o" | tr '\n' ' '))"
done > "$T/readme-tap"
while IFS= read -r l; do
	case $l in
	"ok "*) ok 0 "${l#ok * - }" ;;
	"not ok "*) ok 1 "${l#not ok * - }" ;;
	esac
done < "$T/readme-tap"

done_testing
