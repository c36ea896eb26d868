#!/usr/bin/env python3
"""messages-api.py - a stand-in for Anthropic's Messages API that Claude
Code talks to in the tests: it listens on 127.0.0.1 (a free port, written
to PORTFILE once it listens) and plays one script.

Without SCRIPT: a request whose messages carry a tool_result is logged
whole to RESULTFILE and answered with a short text (end_turn); the first
request offering the Bash tool is answered with a tool_use of Bash running
`env`.

With SCRIPT (a JSON list of steps, each {"tool": NAME, "input": {...}} or
{"text": TEXT}): a request offering tools is answered with the step after
the tool results it carries (the first step when it carries none), and
logged whole to RESULTFILE when it carries any (the last such request holds
every result the model was given).  A step whose "input" is the string
"next_call" calls the tool and arguments the previous result's
structured part names in its next_call (what a model reading ptyvisor's
answer would do), with "then" merged over the arguments.  After the last
step: a short text.

Anything else (a title, a quota check, count_tokens, a health check) gets
a short, well-formed answer.  Every request's method, path and model go to
LOGFILE.  Answers stream (SSE) when the request asks for it.

usage: messages-api.py PORTFILE LOGFILE RESULTFILE [SCRIPT]
"""
import json
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import standin  # noqa: E402

PORTFILE, LOGFILE, RESULTFILE = sys.argv[1:4]
SCRIPT = json.load(open(sys.argv[4])) if len(sys.argv) > 4 else None
state = {"asked": False, "n": 0}


def log(line):
    with open(LOGFILE, "a") as f:
        f.write(line + "\n")


def has_tool_result(req):
    for m in req.get("messages", []):
        c = m.get("content")
        if isinstance(c, list) and any(
                isinstance(b, dict) and b.get("type") == "tool_result"
                for b in c):
            return True
    return False


def tool_results(req):
    """The tool_result blocks of req's messages, in order."""
    out = []
    for m in req.get("messages", []):
        c = m.get("content")
        if isinstance(c, list):
            out += [b for b in c if isinstance(b, dict) and
                    b.get("type") == "tool_result"]
    return out


def result_text(block):
    c = block.get("content")
    if isinstance(c, str):
        return c
    return "".join(x.get("text", "") for x in c or [])


def scripted(req):
    """The step of the script answering req."""
    done = tool_results(req)
    if done:
        with open(RESULTFILE, "w") as f:
            json.dump(req, f)
    if len(done) >= len(SCRIPT):
        return [{"type": "text", "text": "All done."}], "end_turn"
    step = SCRIPT[len(done)]
    if "text" in step:
        return [{"type": "text", "text": step["text"]}], "end_turn"
    name, args = step["tool"], step["input"]
    if args == "next_call":
        nc = json.loads(result_text(done[-1])).get("next_call") or {}
        prefix = step["tool"].rsplit("__", 1)[0]
        name = prefix + "__" + nc.get("tool", "none")
        args = dict(nc.get("arguments") or {}, **step.get("then", {}))
    return [{"type": "tool_use", "id": "toolu_%02d" % len(done),
             "name": name, "input": args}], "tool_use"


def offers_bash(req):
    return any(t.get("name") == "Bash" for t in req.get("tools", []) or [])


def reply_for(req):
    """The content blocks and stop reason answering req."""
    if SCRIPT is not None:
        if req.get("tools"):
            return scripted(req)
        return [{"type": "text", "text": "ok"}], "end_turn"
    if has_tool_result(req):
        with open(RESULTFILE, "w") as f:
            json.dump(req, f)
        return [{"type": "text", "text": "Here is the environment."}], \
            "end_turn"
    if offers_bash(req) and not state["asked"]:
        state["asked"] = True
        return [{"type": "tool_use", "id": "toolu_01standin",
                 "name": "Bash",
                 "input": {"command": "env",
                           "description": "show env"}}], "tool_use"
    return [{"type": "text", "text": "ok"}], "end_turn"


def message(req, content, stop):
    state["n"] += 1
    return {"id": "msg_standin%d" % state["n"], "type": "message",
            "role": "assistant", "model": req.get("model", "claude"),
            "content": content, "stop_reason": stop,
            "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5,
                      "cache_creation_input_tokens": 0,
                      "cache_read_input_tokens": 0}}


def sse_events(msg):
    """The event sequence of a streamed answer carrying msg."""
    start = dict(msg, content=[], stop_reason=None)
    start["usage"] = dict(msg["usage"], output_tokens=1)
    yield "message_start", {"type": "message_start", "message": start}
    for i, b in enumerate(msg["content"]):
        if b["type"] == "tool_use":
            first = dict(b, input={})
            delta = {"type": "input_json_delta",
                     "partial_json": json.dumps(b["input"])}
        else:
            first = {"type": "text", "text": ""}
            delta = {"type": "text_delta", "text": b["text"]}
        yield "content_block_start", {"type": "content_block_start",
                                      "index": i, "content_block": first}
        yield "content_block_delta", {"type": "content_block_delta",
                                      "index": i, "delta": delta}
        yield "content_block_stop", {"type": "content_block_stop",
                                     "index": i}
    yield "message_delta", {"type": "message_delta",
                            "delta": {"stop_reason": msg["stop_reason"],
                                      "stop_sequence": None},
                            "usage": {"output_tokens": 5}}
    yield "message_stop", {"type": "message_stop"}


class Handler(standin.Handler):
    EXTRA_HEADERS = {"request-id": "req_standin"}

    def do_HEAD(self):
        log("HEAD " + self.path)
        self.send_body(200, "text/plain", b"")

    def do_GET(self):
        log("GET " + self.path)
        self.send_json(200, {"data": [], "has_more": False})

    def do_POST(self):
        req = self.read_json()
        path = self.path.split("?")[0]
        log("POST %s model=%s stream=%s tools=%d" % (
            self.path, req.get("model"), req.get("stream"),
            len(req.get("tools") or [])))
        if path.endswith("/count_tokens"):
            self.send_json(200, {"input_tokens": 10})
            return
        if not path.endswith("/v1/messages"):
            self.send_json(200, {})
            return
        content, stop = reply_for(req)
        msg = message(req, content, stop)
        if not req.get("stream"):
            self.send_json(200, msg)
            return
        self.send_events(sse_events(msg))


standin.serve(PORTFILE, Handler)
