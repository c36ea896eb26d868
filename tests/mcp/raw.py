#!/usr/bin/env python3
"""raw.py - `ptyvisor mcp` spoken to in raw JSON lines: what the SDK
clients never send.  Usage: raw.py PTYVISOR WORKDIR.  Prints "ok - NAME" or
"not ok - NAME" lines (and "# ..." diagnostics) for tests/e2e/mcp.sh."""
import json
import os
import select
import subprocess
import sys
import time

PV, W = sys.argv[1], sys.argv[2]
META = {"io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {}}


def check(cond, name, detail=None):
    print(("ok" if cond else "not ok") + " - raw: " + name)
    if not cond and detail is not None:
        print("# " + repr(detail)[:2000])
    sys.stdout.flush()


class Server:
    def __init__(self, *args):
        self.p = subprocess.Popen([PV, "mcp", *args], cwd=W,
                                  stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE)
        self.buf = b""
        self.lines = []     # every stdout line, for the purity check

    def send(self, obj):
        line = obj if isinstance(obj, (bytes, str)) else json.dumps(obj)
        if isinstance(line, str):
            line = line.encode()
        self.p.stdin.write(line + b"\n")
        self.p.stdin.flush()

    def read(self, timeout=20):
        """The next line from stdout as JSON (None on timeout/EOF)."""
        end = time.time() + timeout
        while b"\n" not in self.buf:
            left = end - time.time()
            if left <= 0:
                return None
            r, _, _ = select.select([self.p.stdout], [], [], left)
            if not r:
                return None
            chunk = os.read(self.p.stdout.fileno(), 65536)
            if not chunk:
                return None
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        self.lines.append(line)
        return json.loads(line)

    def ask(self, obj, timeout=20):
        self.send(obj)
        return self.read(timeout)

    def close(self, timeout=10):
        self.p.stdin.close()
        try:
            rc = self.p.wait(timeout)
        except subprocess.TimeoutExpired:
            self.p.kill()
            rc = None
        rest = self.p.stdout.read()
        self.lines += [x for x in (self.buf + rest).split(b"\n") if x]
        return rc


def call(i, name, args, meta=True):
    params = {"name": name, "arguments": args}
    if meta:
        params["_meta"] = META
    return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
            "params": params}


# 2026-07-28: a tools/call with no handshake at all.
s = Server()
r = s.ask(call(1, "run", {"command": "echo stateless"}))
res = (r or {}).get("result", {})
check(r and r.get("id") == 1 and res.get("resultType") == "complete" and
      "stateless" in res["content"][0]["text"] and
      res["structuredContent"]["exit_code"] == 0,
      "a 2026-07-28 tools/call needs no handshake; resultType complete", r)
check(res.get("_meta", {}).get("io.modelcontextprotocol/serverInfo", {})
      .get("name") == "ptyvisor", "... and names the server in _meta", r)

# stdin: the text, then end of file, on a pipe (not the terminal); more
# than 1 MiB is refused before anything runs.
text = "line \u2713\n" * 100000
r = s.ask(call(11, "run", {"command": "wc -lc; test -t 0 || echo notty",
                           "stdin": text}), timeout=60)
res = (r or {}).get("result", {})
out = res.get("content", [{}])[0].get("text", "")
check(out.split()[:3] == ["100000", "900000", "notty"] and
      res.get("structuredContent", {}).get("exit_code") == 0,
      "run's stdin: 900,000 bytes then EOF on a pipe", r)
r = s.ask(call(12, "run", {"command": "cat", "stdin": "x" * ((1 << 20) + 1)}))
res = (r or {}).get("result", {})
check(res.get("isError") is True and
      "1 MiB" in res.get("content", [{}])[0].get("text", ""),
      "run's stdin over 1 MiB: refused, saying the bound", r)

# An unknown _meta version: -32022 with the supported list.
r = s.ask({"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {
    "_meta": dict(META, **{
        "io.modelcontextprotocol/protocolVersion": "2099-01-01"})}})
err = (r or {}).get("error", {})
check(err.get("code") == -32022 and
      err.get("data", {}).get("requested") == "2099-01-01" and
      "2026-07-28" in err.get("data", {}).get("supported", []) and
      "2025-11-25" in err.get("data", {}).get("supported", []),
      "an unknown _meta version: -32022, requested and supported", r)

# _meta version without the required capabilities: invalid params.
m = dict(META)
del m["io.modelcontextprotocol/clientCapabilities"]
r = s.ask({"jsonrpc": "2.0", "id": 3, "method": "tools/list",
           "params": {"_meta": m}})
check((r or {}).get("error", {}).get("code") == -32602,
      "2026-07-28 without clientCapabilities: -32602", r)

# Neither a handshake nor _meta: malformed (-32602), as the versioning page
# says of a request missing its required fields.
r = s.ask({"jsonrpc": "2.0", "id": 4, "method": "tools/call",
           "params": {"name": "run", "arguments": {"command": "echo x"}}})
err = (r or {}).get("error", {})
check(err.get("code") == -32602 and "initialize" in err.get("message", ""),
      "neither handshake nor _meta: -32602 saying what to send", r)

# server/discover before and after an initialize.
disc = {"jsonrpc": "2.0", "id": 5, "method": "server/discover",
        "params": {"_meta": META}}
r = s.ask(disc)
res = (r or {}).get("result", {})
check(res.get("supportedVersions") == ["2026-07-28", "2025-11-25",
                                       "2025-06-18", "2025-03-26"] and
      "tools" in res.get("capabilities", {}) and
      res.get("resultType") == "complete" and
      "denied" in res.get("instructions", "") and
      res.get("serverInfo", {}).get("name") == "ptyvisor",
      "server/discover before initialize", r)
r = s.ask({"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {
    "protocolVersion": "2025-06-18", "capabilities": {},
    "clientInfo": {"name": "raw", "version": "1"}}})
check((r or {}).get("result", {}).get("protocolVersion") == "2025-06-18" and
      "resultType" not in r["result"],
      "initialize 2025-06-18 is negotiated as asked", r)
r = s.ask({"jsonrpc": "2.0", "id": 7, "method": "initialize", "params": {
    "protocolVersion": "2026-07-28", "capabilities": {}}})
check((r or {}).get("result", {}).get("protocolVersion") == "2025-11-25",
      "initialize asking 2026-07-28 gets the latest legacy revision", r)
s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
disc["id"] = 8
r = s.ask(disc)
check((r or {}).get("result", {}).get("supportedVersions", [None])[0] ==
      "2026-07-28", "server/discover after initialize", r)
r = s.ask(call(9, "session_list", {}, meta=False))
check("result" in (r or {}) and "resultType" not in r["result"],
      "after initialize a call without _meta is legacy", r)

# Malformed JSON-RPC: each answered, the stream goes on.
for line, code, name in [
        (b"{not json", -32700, "bad JSON: parse error"),
        (b"[1,2]", -32600, "a batch: invalid request"),
        (b'"a string"', -32600, "not an object: invalid request"),
        (b'{"jsonrpc":"1.0","id":10,"method":"ping"}', -32600,
         "jsonrpc 1.0: invalid request"),
        (b'{"jsonrpc":"2.0","id":11,"method":"no/such"}', -32601,
         "unknown method: method not found"),
        (b'{"jsonrpc":"2.0","id":12,"method":"tools/list","params":[1]}',
         -32602, "params not an object: invalid params"),
        (b'{"jsonrpc":"2.0","id":13,"method":"tools/call","params":'
         b'{"name":"nope","_meta":' + json.dumps(META).encode() + b'}}',
         -32602, "an unknown tool: invalid params"),
        (b'{"jsonrpc":"2.0","id":14,"id":15,"method":"ping"}', -32700,
         "a duplicate key: parse error")]:
    r = s.ask(line)
    check((r or {}).get("error", {}).get("code") == code, name, r)
s.send(b'{"jsonrpc":"2.0","method":"no/such/notification"}')
s.send(b"")
r = s.ask({"jsonrpc": "2.0", "id": 16, "method": "ping"})
check(r == {"jsonrpc": "2.0", "id": 16, "result": {}},
      "notifications and empty lines get no answer; ping does", r)
r = s.ask(b"x" * (5 * 1024 * 1024))
check((r or {}).get("error", {}).get("code") == -32700,
      "a 5 MiB line: parse error, and the stream goes on", r)
# 8 MiB of blank lines are skipped and the next request answered (speed is
# the benchmarks' business: this times nothing; ask() gives up after 20 s).
s.send(b"\n" * (8 * 1024 * 1024 - 1))
r = s.ask({"jsonrpc": "2.0", "id": 30, "method": "ping"})
check((r or {}).get("id") == 30,
      "8 MiB of blank lines: skipped, and the next request answered", r)
r = s.ask(call(17, "run", {}))
check((r or {}).get("result", {}).get("isError") is True,
      "run without a command: a tool error the model can read", r)

# EOF ends the server and its sessions.
s.send(call(18, "run", {"command": "echo eof-test; sleep 60"}))
time.sleep(1.5)
t0 = time.time()
rc = s.close()
check(rc == 0, "EOF on stdin: exit 0 (%s, %.1f s)" % (rc, time.time() - t0))
hist = ""
for _ in range(50):
    hist = subprocess.run([PV, "history", "--grep", "eof-test"],
                          capture_output=True, text=True).stdout
    if "cancelled" in hist:
        break
    time.sleep(0.1)
check("cancelled" in hist, "... its session ended with it (cancelled)", hist)

bad = [x for x in s.lines if not x.startswith(b'{"jsonrpc":"2.0",')]
for x in s.lines:
    try:
        json.loads(x)
    except ValueError:
        bad.append(x)
check(not bad and len(s.lines) >= 15,
      "stdout: nothing but JSON-RPC (%d lines)" % len(s.lines), bad[:3])
