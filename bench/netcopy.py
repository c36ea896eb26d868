#!/usr/bin/env python3
"""netcopy.py - the two ends of bench/net-proxy.sh.

  netcopy.py serve PORTFILE      on 127.0.0.1: to each connection, send
                                 the number of bytes it names in its first
                                 line ("N\\n"), then close; or, when the
                                 line is "put N\\n", read N bytes and
                                 answer "k"
  netcopy.py fetch HOST PORT N   read N bytes from a server: directly, or
                                 through $HTTPS_PROXY's CONNECT when
                                 --proxy comes first; prints MB/s counted
                                 from the first byte to the last
  netcopy.py put HOST PORT N     send N bytes to a server the same ways;
                                 MB/s from the first byte sent to the
                                 server's answer after the last
"""
import os
import socket
import sys
import threading
import time
import urllib.parse

CHUNK = 1 << 20


def serve(portfile):
    srv = socket.socket()
    srv.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    srv.bind(("127.0.0.1", 0))
    srv.listen(16)
    with open(portfile + ".tmp", "w") as f:
        f.write("%d\n" % srv.getsockname()[1])
    os.rename(portfile + ".tmp", portfile)
    block = memoryview(b"x" * CHUNK)

    def one(conn):
        with conn:
            line = b""
            while b"\n" not in line:
                data = conn.recv(64)
                if not data:
                    return
                line += data
            line, rest = line.split(b"\n", 1)
            if line.startswith(b"put "):
                left = int(line[4:]) - len(rest)
                buf = bytearray(CHUNK)
                while left > 0:
                    r = conn.recv_into(buf, min(left, CHUNK))
                    if r == 0:
                        return
                    left -= r
                conn.sendall(b"k")
                return
            n = int(line)
            while n > 0:
                sent = conn.send(block[:min(n, CHUNK)])
                n -= sent

    while True:
        conn, _ = srv.accept()
        threading.Thread(target=one, args=(conn,), daemon=True).start()


def connect(args):
    """The socket to HOST PORT, through the proxy after --proxy; and N."""
    via_proxy = args[0] == "--proxy"
    if via_proxy:
        args = args[1:]
    host, port, n = args[0], int(args[1]), int(args[2])
    if via_proxy:
        u = urllib.parse.urlsplit(os.environ["HTTPS_PROXY"])
        s = socket.create_connection((u.hostname, u.port))
        s.sendall(("CONNECT %s:%d HTTP/1.1\r\n\r\n" % (host, port)).encode())
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(1)
        if b" 200 " not in head.split(b"\r\n")[0]:
            sys.exit("proxy refused: " + head.decode(errors="replace"))
    else:
        s = socket.create_connection((host, port))
    return s, n


def put(args):
    s, n = connect(args)
    s.sendall(b"put %d\n" % n)
    block = memoryview(b"y" * CHUNK)
    start = time.perf_counter()
    left = n
    while left > 0:
        left -= s.send(block[:min(left, CHUNK)])
    if s.recv(1) != b"k":
        sys.exit("no answer after the upload")
    secs = time.perf_counter() - start
    print("%.1f" % (n / secs / 1e6))


def fetch(args):
    s, n = connect(args)
    s.sendall(b"%d\n" % n)
    buf = bytearray(CHUNK)
    got = s.recv_into(buf)
    start = time.perf_counter()
    while got < n:
        r = s.recv_into(buf)
        if r == 0:
            sys.exit("short read: %d of %d" % (got, n))
        got += r
    secs = time.perf_counter() - start
    print("%.1f" % (n / secs / 1e6))


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    elif sys.argv[1] == "put":
        put(sys.argv[2:])
    else:
        fetch(sys.argv[2:])
