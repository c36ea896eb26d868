#!/bin/sh
# Known read-only commands run no program unasked: for each way to make one
# run a program (an option, git's configuration, a pager, a textconv driver,
# a hook, an include, environment variables), the program is planted, the
# request is asked (pending, with the reason) instead of run, and the
# program's marker file never appears.  Where the sandbox lets it, the same
# request approved by a person does run the program: the plant is real.
. "$top_srcdir/tests/tap.sh"

if ! command -v git > /dev/null; then
	echo "1..0 # SKIP git is not installed"
	exit 0
fi

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
export PTYVISOR_STATE_DIR="$T/state" PTYVISOR_CONFIG="$T/config"
export PTYVISOR_SOCKET="$T/run/ptyvisor.sock" HOME="$T/home"
export GIT_CONFIG_NOSYSTEM=1 GIT_AUTHOR_NAME=t GIT_AUTHOR_EMAIL=t@t \
    GIT_COMMITTER_NAME=t GIT_COMMITTER_EMAIL=t@t
mkdir -p "$T/config" "$T/home" "$T/w/bin"
: > "$T/config/rules"

# A program that leaves a marker named by its first argument, then passes
# its input through (a pager, a textconv driver, pr).
cat > "$T/w/bin/plant" <<'EOF'
#!/bin/sh
m=$1
shift
: > "$m"
[ $# -gt 0 ] && exec cat "$@"
exec cat
EOF
chmod +x "$T/w/bin/plant"
printf 'a\n' > "$T/w/a"
printf 'b\n' > "$T/w/b"

# A repository with one commit; its configuration is planted per test.
repo() {
	git init -q "$1" && printf 'x\n' > "$1/f" &&
	    git -C "$1" add f && git -C "$1" commit -qm one
}

# The agents (exec, below) and the server share the PATH with the plant:
# an agent's PATH of its own would void the read-only list by itself.
export PATH="$T/w/bin:$PATH"
$PTYVISOR serve --approval untrusted 2> "$T/serve.log" &
SERVE=$!
cleanup_pid $SERVE
wait_for "[ -S '$PTYVISOR_SOCKET' ]" 10; ok $? "serve listens"

# The request waiting, its number.
pending_req() {
	$PTYVISOR pending --json | sed -n 's/.*"request":\([0-9]*\).*/\1/p' |
	    head -n 1
}

# asked NAME MARKER REASON CWD CMD...: the request is asked with REASON in
# its detail, the marker is not there; then it is denied and still is not.
asked() {
	_name=$1 _mark=$2 _reason=$3 _cwd=$4
	shift 4
	rm -f "$_mark"
	# --text: the command's stdout is the session's terminal, so that a
	# pager is started at all once approved (git pages only a terminal).
	timeout 30 $PTYVISOR exec --text --cwd "$_cwd" -- "$@" > "$T/out" \
	    2>&1 < /dev/null &
	_pid=$!
	wait_for '[ -n "$(pending_req)" ]' 10
	ok $? "$_name: asked, not run (ptyvisor pending lists it)"
	$PTYVISOR pending --json > "$T/pending.json"
	grep -qF -- "$_reason" "$T/pending.json"
	ok $? "$_name: the reason says: $_reason"
	! grep -q 'known read-only' "$T/state/history.jsonl" 2>/dev/null
	ok $? "$_name: nothing ran as a known read-only command"
	[ ! -e "$_mark" ]; ok $? "$_name: the planted program did not run"
	_id=$(pending_req)
	if [ "${APPROVE:-}" = 1 ]; then
		$PTYVISOR approve "$_id"
		wait "$_pid"
		[ -e "$_mark" ]
		ok $? "$_name: approved by a person, it runs (the plant is real)"
	else
		$PTYVISOR deny "$_id" > /dev/null
		wait "$_pid"
		[ ! -e "$_mark" ]; ok $? "$_name: denied, it never ran"
	fi
}

# Options that run a program (diff runs pr by its full path: no plant).
asked "diff -l" "$T/w/pr-ran" "diff --paginate runs pr" "$T/w" diff -l a b
asked "rg --hostname-bin" "$T/w/host-ran" "rg --hostname-bin runs a program" \
    "$T/w" rg --hostname-bin "$T/w/bin/plant" x
asked "rg --hostname-bin=" "$T/w/host-ran" "rg --hostname-bin" \
    "$T/w" rg "--hostname-bin=$T/w/bin/plant" x
asked "rg -z" "$T/w/z-ran" "rg --search-zip runs decompression" "$T/w" \
    rg -z x
asked "sort --compress-program" "$T/w/c-ran" "sort --compress-program" \
    "$T/w" sort "--compress-program=$T/w/bin/plant" a
APPROVE=1 asked "find -exec" "$T/w/find-ran" "find -exec runs a program" \
    "$T/w" \
    find . -name a -exec "$T/w/bin/plant" "$T/w/find-ran" ';'

# Options that write.
APPROVE=1 asked "sort -o" "$T/w/sorted" "sort --output writes a file" "$T/w" \
    sort -o "$T/w/sorted" a
asked "find -fprint" "$T/w/printed" "find -fprint writes a file" "$T/w" \
    find . -fprint "$T/w/printed"
printf 'a\n' > "$T/w/ed"
asked "sed -i" "$T/w/ed.bak" "sed: an option or script command" "$T/w" \
    sed -i.bak s/a/b/ "$T/w/ed"
asked "sed w" "$T/w/sedout" "sed: an option or script command" "$T/w" \
    sed "w $T/w/sedout" a

# git: core.fsmonitor runs a hook on git status.
R="$T/fsmon"
repo "$R"
printf '#!/bin/sh\n: > %s/MARK\n' "$R" > "$R/.git/fsmonitor-hook"
chmod +x "$R/.git/fsmonitor-hook"
git -C "$R" config core.fsmonitor "$R/.git/fsmonitor-hook"
# Outside ptyvisor the plant runs: the test could fail.
git -C "$R" status > /dev/null 2>&1
[ -e "$R/MARK" ]; ok $? "the planted fsmonitor hook runs on a plain git status"
APPROVE=1 asked "core.fsmonitor" "$R/MARK" \
    "$R/.git/config sets core.fsmonitor" "$R" git status

# git: a pager (core.pager; a PTY session is a terminal, so git pages).
R="$T/pager"
repo "$R"
git -C "$R" config core.pager "$T/w/bin/plant $R/MARK"
APPROVE=1 asked "core.pager" "$R/MARK" "$R/.git/config sets core.pager" \
    "$R" git log
R="$T/pagerlog"
repo "$R"
git -C "$R" config pager.log "$T/w/bin/plant $R/MARK"
asked "pager.log" "$R/MARK" "sets pager.log" "$R" git log

# git: a textconv driver named by .gitattributes.
R="$T/textconv"
repo "$R"
printf 'f diff=tc\n' > "$R/.gitattributes"
git -C "$R" config diff.tc.textconv "$T/w/bin/plant $R/MARK"
APPROVE=1 asked "diff.<driver>.textconv" "$R/MARK" \
    "sets diff.<name>.textconv" "$R" git show HEAD
asked "git log -p --textconv" "$R/MARK" \
    "git log --textconv runs the programs" "$R" git log -p --textconv

# git: diff.external and a filter driver.
R="$T/external"
repo "$R"
printf '#!/bin/sh\n: > %s/MARK\n' "$R" > "$R/.git/ext"
chmod +x "$R/.git/ext"
git -C "$R" config diff.external "$R/.git/ext"
printf 'y\n' > "$R/f"
asked "diff.external" "$R/MARK" "sets diff.external" "$R" git diff
R="$T/filter"
repo "$R"
printf 'f filter=fl\n' > "$R/.gitattributes"
git -C "$R" config filter.fl.clean "$T/w/bin/plant $R/MARK"
printf 'z\n' > "$R/f"
asked "filter.<driver>.clean" "$R/MARK" "sets filter.<name>.clean" "$R" \
    git status

# git: a post-index-change hook (git status refreshes the index).
R="$T/hook"
repo "$R"
printf '#!/bin/sh\n: > %s/MARK\n' "$R" > "$R/.git/hooks/post-index-change"
chmod +x "$R/.git/hooks/post-index-change"
asked "post-index-change hook" "$R/MARK" "may run this hook" "$R" git status

# Environment variables: in a shell string and in the request.
R="$T/env"
repo "$R"
asked "GIT_PAGER= in sh -c" "$R/MARK" "assignment" "$R" \
    sh -c "GIT_PAGER='$T/w/bin/plant $R/MARK' git log"
rm -f "$R/MARK"
timeout 30 $PTYVISOR exec --cwd "$R" -e "GIT_PAGER=$T/w/bin/plant $R/MARK" \
    -- git log > /dev/null 2>&1 < /dev/null &
pid=$!
wait_for '[ -n "$(pending_req)" ]' 10
ok $? "exec -e GIT_PAGER=...: asked, not run"
[ ! -e "$R/MARK" ]; ok $? "... and the pager did not run"
$PTYVISOR deny "$(pending_req)" > /dev/null
wait $pid
# A command safe by itself is asked once a variable is set.
timeout 30 $PTYVISOR exec --cwd "$T/w" -e PV_X=1 -- ls > /dev/null 2>&1 \
    < /dev/null &
pid=$!
wait_for '[ -n "$(pending_req)" ]' 10
ok $? "exec -e PV_X=1 -- ls: asked"
$PTYVISOR pending --json | grep -qF '"by":"environment variables set"'
ok $? "... because environment variables are set"
$PTYVISOR deny "$(pending_req)" > /dev/null
wait $pid

# The person's own configuration: an include in ~/.gitconfig.
R="$T/incl"
repo "$R"
printf '[core]\n\tpager = %s %s/MARK\n' "$T/w/bin/plant" "$R" > "$T/home/inc"
printf '[include]\n\tpath = %s/home/inc\n' "$T" > "$T/home/.gitconfig"
asked "include.path in ~/.gitconfig" "$R/MARK" \
    "$T/home/.gitconfig sets include.path" "$R" git log

# Last (the checks above look for no known read-only run in the history):
# the same ls without a variable runs unasked.
timeout 30 $PTYVISOR exec --cwd "$T/w" -- ls > /dev/null 2>&1 < /dev/null
ok $? "and ls alone runs unasked"
grep -q '"by":"known read-only command"' "$T/state/history.jsonl"
ok $? "... as a known read-only command (the history says so)"
# A known read-only command runs with git's program-running settings off,
# so a configuration changed after the check still runs none of them.
out=$(timeout 30 $PTYVISOR exec --cwd "$T/w" -- env < /dev/null | tr -d '\r')
for v in GIT_PAGER=cat GIT_OPTIONAL_LOCKS=0 GIT_CONFIG_KEY_0=core.fsmonitor \
    GIT_CONFIG_VALUE_0=false GIT_CONFIG_KEY_1=core.hooksPath; do
	printf '%s\n' "$out" | grep -qx "$v"
	ok $? "env run as known read-only sees $v"
done
R="$T/late"
repo "$R"
printf '#!/bin/sh\n: > %s/MARK\n' "$R" > "$R/.git/fsmonitor-hook"
chmod +x "$R/.git/fsmonitor-hook"
git -C "$R" config core.fsmonitor "$R/.git/fsmonitor-hook"
printf '%s\n' "$out" | grep '^GIT_\|PAGER' > "$T/neutral"
(cd "$R" && env $(cat "$T/neutral") git status > /dev/null 2>&1)
[ ! -e "$R/MARK" ]
ok $? "with those variables git status runs no fsmonitor hook"

done_testing
