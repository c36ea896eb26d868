#!/bin/sh
# bootstrap-user.sh - the README's first command on a developer's own
# machine.  A new ordinary user (with passwordless sudo where the host has
# sudo, as a developer has it) gets a copy of these sources and runs
# `scripts/bootstrap run -- run -- id -un` in a clean login environment:
# the session runs as that user, every file of the tree (build/ included)
# is theirs, and the recording and history are in their own state
# directory.  Then, without sudo and with a build package made to look
# missing, bootstrap names the package and how to install it, and builds
# and runs nothing.  Needs root or passwordless sudo to make the user
# (else skips); never the network (skips when a package `run` needs is
# missing); the user and everything of theirs go at exit.
. "$top_srcdir/tests/tap.sh"

if [ "${PTYVISOR_TEST_BOOTSTRAP:-}" = skip ]; then
	skip "the README's first command as a user runs once a suite (PTYVISOR_TEST_BOOTSTRAP=skip)"
	done_testing
fi
if [ "$(id -u)" -eq 0 ]; then
	as_root=""
elif command -v sudo >/dev/null && sudo -n true 2>/dev/null; then
	as_root="sudo -n"
else
	skip "not root and no passwordless sudo: cannot make a user"
	done_testing
fi
src=$(cd "$top_srcdir" && pwd -P)
# (Whoever owns the checkout: git may refuse another's without this.)
git() { command git -c safe.directory="$src" -C "$src" "$@"; }
if ! command -v git >/dev/null ||
    [ "$(git rev-parse --show-toplevel 2>/dev/null)" != "$src" ]; then
	skip "the sources are not a git checkout (the README starts from one)"
	done_testing
fi
# What `run` installs: all of it here already, or bootstrap would need the
# network.
pkgs=$(sed -n '/^PKGS_BUILD="/,/"$/p' "$src/scripts/bootstrap" |
    sed 's/^PKGS_BUILD=//' | tr -d '"\\')
absent=""
for p in $pkgs; do
	dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null |
	    grep -q 'install ok installed' || absent="$absent $p"
done
if [ -z "$pkgs" ] || [ -n "$absent" ]; then
	skip "bootstrap run would install${absent:- its packages} (the network)"
	done_testing
fi

T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
U=pvboot$$
sudoers=/etc/sudoers.d/ptyvisor-test-$U
if ! $as_root useradd -m -s /bin/sh "$U" 2> "$T/useradd.err"; then
	skip "useradd $U: $(cat "$T/useradd.err")"
	done_testing
fi
# At exit: the user's processes, what they left in the temporary
# directories, the user, their home and sudo rule.
drop_user() {
	$as_root pkill -KILL -u "$U" 2>/dev/null
	wait_for "! pgrep -u '$U'" 10
	$as_root find /tmp /var/tmp /dev/shm -maxdepth 1 -user "$U" \
	    -exec rm -rf {} + 2>/dev/null
	$as_root userdel -r "$U" 2>/dev/null
	$as_root rm -f "$sudoers"
}
cleanup_cmd drop_user
H=$(getent passwd "$U" | cut -d: -f6)
as_user() { $as_root runuser -u "$U" -- "$@"; }
# login SCRIPT: SCRIPT in the user's login shell, environment as at a login
# (none of ours), no terminal (so that sudo cannot ask for a password).
login() { $as_root setsid -w runuser -l "$U" -c "$1" < /dev/null; }

# The sources as a clone holds them, with what is not yet committed: the
# files git knows and those it does not ignore.
as_user mkdir "$H/src"
(cd "$src" && git ls-files -z -co --exclude-standard |
    tar --null --no-recursion --ignore-failed-read -T - -cf -) |
    as_user tar -C "$H/src" -xf -
ok $? "a copy of the sources in $U's home"
if command -v sudo >/dev/null; then
	echo "$U ALL=(ALL) NOPASSWD: ALL" | $as_root tee "$sudoers" >/dev/null
	$as_root chmod 0440 "$sudoers"
	diag "$U may use sudo, without a password"
else
	diag "no sudo here: $U is an ordinary user without it"
fi

login 'cd src && scripts/bootstrap run -- run -- id -un' > "$T/out" 2> "$T/err"
rc=$?
is "$rc" 0 "scripts/bootstrap run -- run -- id -un as $U exits 0"
[ "$rc" -eq 0 ] || sed 's/^/# /' "$T/err" | tail -20
grep -q '^bootstrap: installing' "$T/out"
is "$?" 1 "nothing to install: no step ran as root"
is "$(tr -d '\r' < "$T/out" | tail -n 1)" "$U" "the session ran as $U, not root"
ok "$($as_root find "$H/src" ! -user "$U" | wc -l)" \
    "every file of the tree is $U's ($($as_root find "$H/src" | wc -l) files)"
[ "$($as_root stat -c %U "$H/src/build/ptyvisor" 2>/dev/null)" = "$U" ]
ok $? "build/ptyvisor is built, and $U's"
state="$H/.local/state/ptyvisor"
casts() { $as_root find "$state/sessions" -name '*.cast' 2>/dev/null; }
casts > "$T/casts"
is "$(wc -l < "$T/casts")" 1 "one recording, in $U's state directory"
cast=$(head -n 1 "$T/casts")
$as_root cat "$cast" | python3 "$top_srcdir/tests/e2e/castdata.py" /dev/stdin |
    tr -d '\r' | grep -qx "$U"
ok $? "the recording holds what id -un printed"
[ "$($as_root stat -c %U "$cast" "$state/history.jsonl" | sort -u)" = "$U" ]
ok $? "the recording and history.jsonl are $U's"

# Without sudo, a build package that looks missing: said, and nothing run.
$as_root rm -f "$sudoers"
last=$(echo $pkgs | awk '{ print $NF }')
as_user mkdir "$H/stub"
printf '%s\n' '#!/bin/sh' \
    "case \" \$* \" in *\" $last \"*) exit 1 ;; esac" \
    'exec /usr/bin/dpkg-query "$@"' | as_user tee "$H/stub/dpkg-query" >/dev/null
as_user chmod 755 "$H/stub/dpkg-query"
login 'PATH=$HOME/stub:$PATH; cd src && scripts/bootstrap run -- run -- id -un' \
    > "$T/out2" 2> "$T/err2"
rc=$?
[ "$rc" -ne 0 ]; ok $? "$last missing, no sudo: bootstrap stops (exit $rc)"
[ "$rc" -ne 0 ] || sed 's/^/# /' "$T/out2" | tail -20
grep -q "^bootstrap: missing Debian packages .*: $last\$" "$T/err2"
ok $? "it names $last"
grep -q "apt-get install --no-install-recommends $last" "$T/err2"
ok $? "and says how to install it"
! tr -d '\r' < "$T/out2" | grep -qx "$U" &&
    [ "$(casts | wc -l)" -eq 1 ]
ok $? "and runs nothing"

done_testing
