#!/bin/sh
# cgroup2-vm.sh - the sandbox's memory bound on a pure cgroup v2 hierarchy,
# wherever the suite runs: a Linux kernel booted under qemu (KVM, else
# emulated) from an initramfs made here of busybox-static, the built
# ptyvisor and probe and the libraries they load.  Its PID 1
# (cgroup2-init.sh) mounts cgroup2 with memory and pids handed down and
# checks, as root in the root cgroup, as root in a leaf (as under systemd)
# and as nobody in a delegated subtree: --explain names the v2 memory
# cgroup, a memory bomb is killed and says "memory limit" (sandbox, run,
# history), memory.events counts the kill, a command under the bound runs,
# the session's cgroup holds memory.max, memory.swap.max and pids.max, and
# none is left behind.  Results come back over the serial console.
#
# Skipped with the reason without qemu-system-x86_64, a kernel image
# ($PTYVISOR_TEST_KERNEL, else tests/sandbox/kernel/vmlinuz, which
# scripts/bootstrap extracts from Debian's cloud kernel, else the running
# one's in /boot) or a static busybox.

. "$top_srcdir/tests/tap.sh"

QEMU=$(command -v qemu-system-x86_64)
if [ -z "$QEMU" ]; then
	skip "qemu-system-x86_64 is not installed (Debian: qemu-system-x86)"
	done_testing
fi
KERNEL=${PTYVISOR_TEST_KERNEL:-}
for k in "$top_srcdir/tests/sandbox/kernel/vmlinuz" "/boot/vmlinuz-$(uname -r)"; do
	[ -z "$KERNEL" ] && [ -r "$k" ] && KERNEL=$k
done
if [ -z "$KERNEL" ]; then
	skip "no kernel image (scripts/bootstrap deps puts one in tests/sandbox/kernel; or set PTYVISOR_TEST_KERNEL)"
	done_testing
fi
BUSYBOX=
for b in /bin/busybox /usr/bin/busybox; do
	[ -z "$BUSYBOX" ] && [ -x "$b" ] && ! ldd "$b" > /dev/null 2>&1 &&
		BUSYBOX=$b
done
if [ -z "$BUSYBOX" ]; then
	skip "no static busybox (Debian: busybox-static)"
	done_testing
fi
# Emulated by default: the checks take seconds that way, and KVM inside
# another machine may stop or hang a guest (PTYVISOR_TEST_VM_ACCEL=kvm uses
# it where it works).
case ${PTYVISOR_TEST_VM_ACCEL:-tcg} in
kvm)
	if [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		skip "PTYVISOR_TEST_VM_ACCEL=kvm but /dev/kvm is not usable"
		done_testing
	fi
	ACCEL="-accel kvm -cpu host" ;;
*)
	ACCEL="-accel tcg" ;;
esac
LIMIT=300

T=$(mktemp -d "$OUTSIDE/ptyvisor-cgroup2-vm.XXXXXX") || exit 1
cleanup_cmd "rm -rf '$T'"
R=$T/root
mkdir -p "$R/bin" "$R/etc" "$R/proc" "$R/sys" "$R/dev" "$R/root" || exit 1

# The initramfs: busybox, our two programs, the libraries they load.
cp "$BUSYBOX" "$R/bin/busybox" &&
	cp "$PTYVISOR" "$R/bin/ptyvisor" &&
	cp "$top_builddir/tests/sandbox/probe" "$R/bin/probe" &&
	cp "$top_srcdir/tests/sandbox/cgroup2-init.sh" "$R/init" &&
	chmod 755 "$R/init" || exit 1
ln -s busybox "$R/bin/sh"
for lib in $(ldd "$PTYVISOR" "$top_builddir/tests/sandbox/probe" |
	awk 'NF > 1 && $1 ~ /^\// { print $1 } $3 ~ /^\// { print $3 }' | sort -u); do
	mkdir -p "$R$(dirname "$lib")" && cp -L "$lib" "$R$lib" || exit 1
done
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' \
	> "$R/etc/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' > "$R/etc/group"
(cd "$R" && find . | "$BUSYBOX" cpio -o -H newc -R 0:0 2> /dev/null) |
	gzip -1 > "$T/initrd.gz"
ok $? "an initramfs of $(du -k "$T/initrd.gz" | cut -f1) kB (kernel $KERNEL)"

# The machine: no disk, no network, the console on the first serial port;
# it powers off at the end (a panic, too: -no-reboot).
start=$(date +%s)
"$QEMU" $ACCEL -m 768 -smp 2 -nodefaults -no-reboot -display none \
	-monitor none -serial "file:$T/serial.txt" \
	-kernel "$KERNEL" -initrd "$T/initrd.gz" \
	-append "console=ttyS0 loglevel=3 panic=-1 oops=panic" \
	> "$T/qemu.txt" 2>&1 < /dev/null &
VM=$!
cleanup_pid $VM
# KVM stops a machine it cannot run, and qemu waits: that ends it too.
if ! wait_for "! kill -0 $VM || grep -q 'internal error' '$T/qemu.txt'" \
	$LIMIT || kill -0 $VM 2> /dev/null; then
	diag "the machine did not power off by itself (stopped, or past $LIMIT s)"
	kill -9 $VM
fi
wait $VM
diag "the machine ran $(( $(date +%s) - start )) s"

tr -d '\r' < "$T/serial.txt" > "$T/console.txt"
grep -q '^PV: done$' "$T/console.txt"
st=$?
ok $st "the machine ran every check to the end"
if [ $st -ne 0 ]; then
	sed 's/^/#   /' "$T/qemu.txt"
	tail -n 40 "$T/console.txt" | sed 's/^/#   /'
fi
while IFS= read -r line; do
	case "$line" in
	"PV: ok - "*) ok 0 "${line#PV: ok - }" ;;
	"PV: not ok - "*) ok 1 "${line#PV: not ok - }" ;;
	"PV: skip - "*) skip "${line#PV: skip - }" ;;
	"PV: # "*) diag "${line#PV: # }" ;;
	esac
done < "$T/console.txt"
done_testing
