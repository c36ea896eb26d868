#!/usr/bin/env python3
"""upstream.py - the servers a filtered network's tests reach through the
proxy, on 127.0.0.1 only: an HTTP server (GET /hello answers
"hello-from-upstream", GET /big?n=N answers N bytes), a TCP echo server
and a digest server (a line "N", then bytes until EOF: answers their
SHA-256 in hex on a line, then N bytes of random.Random(N), and closes).
Writes "HTTP_PORT ECHO_PORT DIGEST_PORT" to the file named first, then
serves until killed.  The HTTP and echo servers answer on ::1 too, at
the same ports, where those are free.  With a directory named second,
UNIX stream echo servers too, at DIR/echo.sock and DIR/other.sock."""
import hashlib
import http.server
import os
import random
import socket
import socketserver
import sys
import threading


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path.startswith("/big?n="):
            n = int(self.path.split("=", 1)[1])
            self.send_response(200)
            self.send_header("Content-Length", str(n))
            self.end_headers()
            chunk = b"x" * 65536
            while n > 0:
                self.wfile.write(chunk[:n])
                n -= min(n, len(chunk))
            return
        body = b"hello-from-upstream host=" + \
            self.headers.get("Host", "").encode() + b"\n"
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Echo(socketserver.BaseRequestHandler):
    def handle(self):
        while True:
            data = self.request.recv(65536)
            if not data:
                return
            self.request.sendall(data)


class Digest(socketserver.BaseRequestHandler):
    def handle(self):
        f = self.request.makefile("rb")
        n = int(f.readline())
        h = hashlib.sha256()
        while True:
            data = f.read1(1 << 20)
            if not data:
                break
            h.update(data)
        self.request.sendall(h.hexdigest().encode() + b"\n")
        self.request.sendall(random.Random(n).randbytes(n))


class Threaded(socketserver.ThreadingMixIn, socketserver.TCPServer):
    daemon_threads = True
    allow_reuse_address = True


class Threaded6(Threaded):
    address_family = socket.AF_INET6


class UnixThreaded(socketserver.ThreadingMixIn,
                   socketserver.UnixStreamServer):
    daemon_threads = True


def main():
    http_srv = Threaded(("127.0.0.1", 0), Handler)
    echo_srv = Threaded(("127.0.0.1", 0), Echo)
    digest_srv = Threaded(("127.0.0.1", 0), Digest)
    servers = [http_srv, echo_srv, digest_srv]
    for srv, handler in ((http_srv, Handler), (echo_srv, Echo)):
        try:
            servers.append(Threaded6(("::1", srv.server_address[1]),
                                     handler))
        except OSError:
            pass    # no IPv6 here, or someone else's port
    if len(sys.argv) > 2:
        for name in ("echo.sock", "other.sock"):
            servers.append(UnixThreaded(os.path.join(sys.argv[2], name),
                                        Echo))
    for srv in servers:
        threading.Thread(target=srv.serve_forever, daemon=True).start()
    tmp = sys.argv[1] + ".tmp"
    with open(tmp, "w") as f:
        f.write("%d %d %d\n" % (http_srv.server_address[1],
                                echo_srv.server_address[1],
                                digest_srv.server_address[1]))
    os.rename(tmp, sys.argv[1])
    threading.Event().wait()


if __name__ == "__main__":
    main()
