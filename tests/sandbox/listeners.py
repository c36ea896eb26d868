# listeners.py - loopback listeners for the sandbox tests: TCP on 127.0.0.1
# and ::1, a UDP echo on 127.0.0.1, a pathname and an abstract UNIX socket,
# and a pathname UNIX datagram socket (argv[2] + ".dgram").
# Writes "tcp4 tcp6 udp" ports to argv[1] once all listen; serves until
# killed.  Only loopback addresses, only what the test asked for.
import os, select, socket, sys

out, unix_path, abstract = sys.argv[1], sys.argv[2], sys.argv[3]
t4 = socket.socket(socket.AF_INET); t4.bind(("127.0.0.1", 0)); t4.listen(16)
t6 = socket.socket(socket.AF_INET6); t6.bind(("::1", 0)); t6.listen(16)
u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); u.bind(("127.0.0.1", 0))
up = socket.socket(socket.AF_UNIX); up.bind(unix_path); up.listen(16)
ua = socket.socket(socket.AF_UNIX); ua.bind("\0" + abstract); ua.listen(16)
ud = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); ud.bind(unix_path + ".dgram")
with open(out + ".new", "w") as f:
    f.write("%d %d %d\n" % (t4.getsockname()[1], t6.getsockname()[1],
                            u.getsockname()[1]))
os.rename(out + ".new", out)
conns = []
while True:
    r, _, _ = select.select([t4, t6, u, up, ua, ud] + conns, [], [])
    for s in r:
        if s is ud:
            ud.recv(64)
        elif s is u:
            data, addr = u.recvfrom(64)
            u.sendto(data, addr)
        elif s in conns:
            if not s.recv(64):
                conns.remove(s)
                s.close()
        else:
            c, _ = s.accept()
            conns.append(c)
