#!/usr/bin/env python3
"""netclient.py - what a command inside a filtered network tries, one
verdict line per probe: "NAME ok DETAIL" or "NAME failed DETAIL".

  connect HOST PORT        CONNECT through $HTTPS_PROXY, then echo a line
  bulk HOST PORT SIZE      CONNECT, then SIZE bytes echoed back, compared
  halfclose HOST PORT UP DOWN
                           CONNECT to upstream.py's digest server: UP bytes
                           out, the way out shut, then their digest and
                           DOWN bytes back, both compared
  socks HOST PORT          SOCKS5 through the proxy port, then echo a line
  direct ADDR PORT         a TCP connection ignoring the proxy
  dbulk ADDR PORT SIZE     bulk, on a direct connection
  dhalfclose ADDR PORT UP DOWN
                           halfclose, on a direct connection
  unix PATH                a UNIX stream socket connected to PATH
  unixecho PATH            the same, then echo a line
  bind PORT                bind 127.0.0.1:PORT and listen
  ownserver                a server of its own on 127.0.0.1 (any port),
                           connected to, echoing a line
  urllib URL               urllib with the proxy variables
"""
import hashlib
import os
import random
import socket
import struct
import sys
import urllib.parse
import urllib.request


def proxy_addr():
    u = urllib.parse.urlsplit(os.environ["HTTPS_PROXY"])
    return u.hostname, u.port


def echo(s):
    s.sendall(b"ping-through-proxy\n")
    data = b""
    while not data.endswith(b"\n"):
        chunk = s.recv(100)
        if not chunk:
            break
        data += chunk
    return data.strip().decode()


def connect(host, port):
    s = socket.create_connection(proxy_addr(), timeout=10)
    s.sendall(("CONNECT %s:%s HTTP/1.1\r\nHost: %s:%s\r\n\r\n" %
               (host, port, host, port)).encode())
    head = b""
    while b"\r\n\r\n" not in head:
        chunk = s.recv(1)
        if not chunk:
            break
        head += chunk
    status = head.split(b"\r\n", 1)[0].decode()
    if " 200 " not in status:
        rest = s.recv(4096).decode(errors="replace").strip()
        return False, status + " | " + rest
    connect.sock = s
    if connect.raw:
        return True, "tunnel"
    return True, echo(s)


connect.raw = False


def recv_all(s):
    """Everything the peer sends until it closes."""
    got = bytearray()
    while True:
        chunk = s.recv(1 << 20)
        if not chunk:
            return bytes(got)
        got += chunk


def tunnel(host, port):
    """A socket to host:port through CONNECT, or None and why."""
    connect.raw = True
    good, detail = connect(host, port)
    return (connect.sock if good else None), detail


def plain(addr, port):
    """A socket to addr:port, ignoring the proxy."""
    return socket.create_connection((addr, int(port)), timeout=10), ""


def bulk(host, port, size, via=tunnel):
    """size pseudo-random bytes out and the same back."""
    import threading
    s, detail = via(host, port)
    if s is None:
        return False, detail
    data = hashlib.sha256(b"seed").digest() * (int(size) // 32 + 1)
    data = data[:int(size)]
    sender = threading.Thread(target=lambda: (s.sendall(data),
                                              s.shutdown(socket.SHUT_WR)))
    sender.start()
    got = recv_all(s)
    sender.join()
    return got == data, "%d bytes back, %s" % (
        len(got), "equal" if got == data else "different")


def halfclose(host, port, up, down, via=tunnel):
    """UP bytes out and shut; the way back carries their digest, then
    DOWN bytes: random streams, so a block lost, repeated or moved shows."""
    s, detail = via(host, port)
    if s is None:
        return False, detail
    up, down = int(up), int(down)
    data = random.Random(up).randbytes(up)
    s.sendall(b"%d\n" % down + data)
    s.shutdown(socket.SHUT_WR)
    digest, _, back = recv_all(s).partition(b"\n")
    same_up = digest == hashlib.sha256(data).hexdigest().encode()
    same_down = back == random.Random(down).randbytes(down)
    return same_up and same_down, "%d up %s, %d of %d down %s" % (
        up, "equal" if same_up else "different", len(back), down,
        "equal" if same_down else "different")


def socks(host, port):
    s = socket.create_connection(proxy_addr(), timeout=10)
    s.sendall(b"\x05\x01\x00")
    if s.recv(2) != b"\x05\x00":
        return False, "no method"
    name = host.encode()
    s.sendall(b"\x05\x01\x00\x03" + bytes([len(name)]) + name +
              struct.pack(">H", int(port)))
    reply = s.recv(10)
    if len(reply) < 2 or reply[1] != 0:
        return False, "reply code %d" % (reply[1] if len(reply) > 1 else -1)
    return True, echo(s)


def direct(addr, port):
    s = socket.create_connection((addr, int(port)), timeout=5)
    return True, echo(s)


def unix(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return True, "connected"


def unixecho(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(path)
    return True, echo(s)


def bind(port):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind(("127.0.0.1", int(port)))
    s.listen()
    return True, "listening"


def ownserver():
    import threading
    srv = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    srv.bind(("127.0.0.1", 0))
    srv.listen()

    def serve():
        c, _ = srv.accept()
        c.sendall(c.recv(100))
        c.close()
    threading.Thread(target=serve, daemon=True).start()
    s = socket.create_connection(srv.getsockname(), timeout=5)
    return True, echo(s)


def fetch(url):
    return True, urllib.request.urlopen(url, timeout=10).read().decode().strip()


def main():
    probes = {"connect": connect, "bulk": bulk, "halfclose": halfclose,
              "socks": socks,
              "direct": direct,
              "dbulk": lambda *a: bulk(*a, via=plain),
              "dhalfclose": lambda *a: halfclose(*a, via=plain),
              "unix": unix, "unixecho": unixecho, "bind": bind,
              "ownserver": ownserver, "urllib": fetch}
    name, args = sys.argv[1], sys.argv[2:]
    try:
        good, detail = probes[name](*args)
    except Exception as e:  # every failure is a verdict
        good, detail = False, "%s: %s" % (type(e).__name__, e)
    print("%s %s %s" % (name, "ok" if good else "failed", detail))


if __name__ == "__main__":
    main()
