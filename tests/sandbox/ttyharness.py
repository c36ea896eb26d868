# ttyharness.py - run a command on a fresh pty (A) as its controlling
# terminal, with a second pty (B) standing for another terminal of the
# person.  Prints the command's output lines, then "injected yes|no" (did a
# TIOCSTI'd '~' reach A's input: it is echoed back) and "other yes|no" (did
# anything reach B).  Usage: ttyharness.py MARK-FILE CMD... where the word
# @B in CMD is replaced by B's path.
import os, pty, select, sys, time

a_master, a_slave = pty.openpty()
b_master, b_slave = pty.openpty()
b_path = os.ttyname(b_slave)
argv = [w.replace("@B", b_path) for w in sys.argv[1:]]
pid = os.fork()
if pid == 0:
    os.setsid()
    os.close(a_master)
    os.close(b_master)
    fd = os.open(os.ttyname(a_slave), os.O_RDWR)   # becomes the ctty
    for i in (0, 1, 2):
        os.dup2(fd, i)
    os.execvp(argv[0], argv)
os.close(a_slave)
out, other = b"", b""
deadline = time.time() + 20
while time.time() < deadline:
    r, _, _ = select.select([a_master, b_master], [], [], 0.1)
    if a_master in r:
        try:
            d = os.read(a_master, 4096)
        except OSError:
            d = b""
        if not d:
            break
        out += d
    if b_master in r:
        other += os.read(b_master, 4096)
    wpid, _ = os.waitpid(pid, os.WNOHANG)
    if wpid == pid:
        pid = 0
        # drain what is left
        while select.select([a_master], [], [], 0.2)[0]:
            try:
                d = os.read(a_master, 4096)
            except OSError:
                break
            if not d:
                break
            out += d
        break
if pid:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
while select.select([b_master], [], [], 0)[0]:
    other += os.read(b_master, 4096)
text = out.decode(errors="replace").replace("\r", "")
for l in text.split("\n"):
    l = l.replace("~", "").replace(b_path, "@B")
    if " allowed" in l or " denied" in l:
        print(l)
print("injected", "yes" if "~" in text else "no")
print("other", "yes" if other else "no")
