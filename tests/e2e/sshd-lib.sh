# sshd-lib.sh - a real sshd of a test's own on 127.0.0.1, with its own host
# key, public keys only, stopped at exit (sourced after tests/tap.sh).

# sshd_start DIR AUTHORIZED_KEYS [CONFIG-LINE...]: start sshd with its
# files in DIR (made, mode 0700), the keys in AUTHORIZED_KEYS (which may be
# written afterwards) and the extra sshd_config lines given; set SSHD_PORT
# and SSHD_PID.  Skips, ending the test with the reason, where sshd, ssh,
# ssh-keygen or python3 is missing or sshd cannot start.
sshd_start() {
	sshd_dir=$1
	sshd_keys=$2
	shift 2
	SSHD=$(command -v sshd 2> /dev/null || echo /usr/sbin/sshd)
	[ -x "$SSHD" ] || { echo "1..0 # SKIP sshd is missing (openssh-server)"; exit 0; }
	for c in ssh ssh-keygen python3; do
		command -v $c > /dev/null 2>&1 ||
		    { echo "1..0 # SKIP $c is missing"; exit 0; }
	done
	mkdir -p "$sshd_dir"
	chmod 700 "$sshd_dir"
	ssh-keygen -q -t ed25519 -N '' -f "$sshd_dir/host" -C host < /dev/null
	SSHD_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
	{
		cat <<CONF
Port $SSHD_PORT
ListenAddress 127.0.0.1
HostKey $sshd_dir/host
AuthorizedKeysFile $sshd_keys
PidFile $sshd_dir/sshd.pid
StrictModes no
UsePAM no
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers $(id -un)
LogLevel ERROR
CONF
		for line in "$@"; do
			echo "$line"
		done
	} > "$sshd_dir/sshd_config"
	# As root sshd needs its privilege separation directory (the
	# package's service makes it at boot; a container may not have it).
	[ "$(id -u)" -ne 0 ] || [ -d /run/sshd ] || mkdir -p -m 0755 /run/sshd
	"$SSHD" -f "$sshd_dir/sshd_config" -D -e 2> "$sshd_dir/sshd.log" &
	SSHD_PID=$!
	cleanup_pid $SSHD_PID
	if ! wait_for "python3 -c 'import socket; socket.create_connection((\"127.0.0.1\", $SSHD_PORT), 1)' 2>/dev/null" 10; then
		echo "1..0 # SKIP sshd cannot start here: $(head -c 300 "$sshd_dir/sshd.log" | tr '\n' ' ')"
		exit 0
	fi
}
