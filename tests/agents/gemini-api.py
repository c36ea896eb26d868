#!/usr/bin/env python3
"""gemini-api.py - a stand-in for the Gemini API that Gemini CLI talks to in
the tests: it listens on 127.0.0.1 (a free port, written to PORTFILE once
it listens) and plays one SCRIPT.

SCRIPT is a JSON file holding a list of turns, each either
  {"call": NAME, "args": {...}}   a function call the model makes, or
  {"text": "..."}                 the model's final answer.
A conversation request (generateContent or streamGenerateContent offering
tools) carrying N functionResponse parts is answered with turn N: the
first request gets turn 0, the one carrying its result turn 1, and so on;
past the end, a short text.  An argument "$session" stands for the first
number after the word "session" in the previous call's result (what the
model was told to follow a command still running with).  Any other
request (a classifier, a next-speaker check, countTokens) gets a short,
well-formed answer.  Every request is appended to LOGFILE as one JSON
line {"method", "path", "body"}: a test reads there what the model got.

usage: gemini-api.py PORTFILE LOGFILE SCRIPT
"""
import http.server
import json
import os
import re
import sys
import threading

PORTFILE, LOGFILE, SCRIPT = sys.argv[1:4]
with open(SCRIPT) as f:
    TURNS = json.load(f)
lock = threading.Lock()


def log(method, path, body):
    with lock, open(LOGFILE, "a") as f:
        f.write(json.dumps({"method": method, "path": path, "body": body})
                + "\n")


def results(req):
    """The functionResponse parts of req's conversation, in order."""
    return [p["functionResponse"] for c in req.get("contents", [])
            for p in c.get("parts", []) if "functionResponse" in p]


def strings(v):
    """Every string inside the JSON value v."""
    if isinstance(v, str):
        yield v
    elif isinstance(v, dict):
        for x in v.values():
            yield from strings(x)
    elif isinstance(v, list):
        for x in v:
            yield from strings(x)


def fill(args, done):
    """args with "$session" replaced from the last result in done."""
    text = "\n".join(strings(done[-1])) if done else ""
    m = re.search(r"session\W{0,4}(\d+)", text)
    return {k: (int(m.group(1)) if v == "$session" and m else v)
            for k, v in args.items()}


def part_for(req):
    """The model's part answering req."""
    if not any(t.get("functionDeclarations") for t in req.get("tools", [])):
        return {"text": json.dumps({"reasoning": "stand-in",
                                    "next_speaker": "user"})}
    done = results(req)
    turn = TURNS[len(done)] if len(done) < len(TURNS) else {"text": "done"}
    if "call" in turn:
        return {"functionCall": {"name": turn["call"],
                                 "args": fill(turn.get("args", {}), done)}}
    return {"text": turn["text"]}


def answer(req):
    return {"candidates": [{"content": {"role": "model",
                                        "parts": [part_for(req)]},
                            "finishReason": "STOP", "index": 0}],
            "usageMetadata": {"promptTokenCount": 10,
                              "candidatesTokenCount": 5,
                              "totalTokenCount": 15},
            "modelVersion": "stand-in"}


class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def send(self, ctype, body):
        self.send_response(200)
        self.send_header("Content-Type", ctype)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def do_GET(self):
        log("GET", self.path, None)
        self.send("application/json", b"{}")

    def do_POST(self):
        raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        try:
            req = json.loads(raw or b"{}")
        except ValueError:
            req = {"unparsed": raw.decode("utf-8", "replace")}
        log("POST", self.path, req)
        path = self.path.split("?")[0]
        if path.endswith(":countTokens"):
            self.send("application/json", b'{"totalTokens": 10}')
        elif path.endswith(":streamGenerateContent"):
            # alt=sse: one event carrying the whole answer.
            self.send("text/event-stream",
                      b"data: " + json.dumps(answer(req)).encode() +
                      b"\r\n\r\n")
        elif path.endswith(":generateContent"):
            self.send("application/json", json.dumps(answer(req)).encode())
        else:
            self.send("application/json", b"{}")


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
with open(PORTFILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.rename(PORTFILE + ".tmp", PORTFILE)
server.serve_forever()
