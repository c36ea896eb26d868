"""standin.py - what the stand-ins of the model APIs share (imported by
messages-api.py and responses-api.py): an HTTP server on 127.0.0.1 whose
free port is written to PORTFILE once it listens, and a request handler
that reads a JSON body and answers with JSON or with server-sent events.

A handler class sets EXTRA_HEADERS (sent with every answer) and its own
do_GET / do_POST; the port file appears whole (written, then renamed), so
a test waiting for it never reads half a number.
"""
import http.server
import json
import os


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    EXTRA_HEADERS = {}

    def log_message(self, *args):
        pass

    def read_json(self):
        """The request's body, parsed ({} if it is not JSON)."""
        n = int(self.headers.get("Content-Length") or 0)
        raw = self.rfile.read(n)
        try:
            return json.loads(raw or b"{}")
        except ValueError:
            return {}

    def send_body(self, code, ctype, body, more=None):
        """Answer code with body (bytes) of type ctype."""
        self.send_response(code)
        self.send_header("Content-Type", ctype)
        for k, v in dict(self.EXTRA_HEADERS, **(more or {})).items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def send_json(self, code, obj):
        self.send_body(code, "application/json", json.dumps(obj).encode())

    def send_events(self, events):
        """A streamed answer: each (name, data) one server-sent event."""
        body = "".join("event: %s\ndata: %s\n\n" % (e, json.dumps(d))
                       for e, d in events).encode()
        self.send_body(200, "text/event-stream", body,
                       {"Cache-Control": "no-cache"})


def serve(portfile, handler):
    """Listen on a free port of 127.0.0.1, say which in portfile, serve
    for ever (a thread for each connection)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    with open(portfile + ".tmp", "w") as f:
        f.write(str(server.server_address[1]))
    os.rename(portfile + ".tmp", portfile)
    server.serve_forever()
