#!/usr/bin/env python3
"""responses-api.py - a stand-in for OpenAI's Responses API that the Codex
CLI talks to in the tests: it listens on 127.0.0.1 (a free port, written
to PORTFILE once it listens) and plays SCRIPT.

SCRIPT is a JSON list of turns, played in order; each is one answer:
  {"call": NAME, "arguments": {...}}  a function call: Codex's shell tool
                                      (exec_command, write_stdin)
  {"call": NAME, "namespace": NS, "arguments": {...}}
                                      a tool of a namespace: an MCP tool
                                      (run in mcp__ptyvisor)
  {"search": QUERY}                   a tool_search call (Codex answers
                                      with the deferred tools that match)
  {"custom": NAME, "input": TEXT}     a freeform tool call (apply_patch)
  {"text": TEXT}                      a final message, ending the turn
An argument "{prev:REGEX}" becomes REGEX's first group in the previous
call's output (a session number, say).  A request is answered with turn
N, N being how many of this stand-in's calls already have their output in
the request's input: a turn is played once the previous call's output
came back, and a retried request gets the same answer.  Past the end of
the script it answers "done".

Every request is appended whole to LOGFILE as one JSON line {"method",
"path", "body"}, so a test reads what the model was sent (the tools it
was offered, each call's output).  POST /v1/responses answers stream as
server-sent events; anything else (the model list) gets a short
well-formed answer.

usage: responses-api.py PORTFILE LOGFILE SCRIPT
"""
import json
import re
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
import standin  # noqa: E402

PORTFILE, LOGFILE, SCRIPTFILE = sys.argv[1:4]
with open(SCRIPTFILE) as f:
    SCRIPT = json.load(f)
CALL_ID = "call_standin_%d"


def log(method, path, body):
    with open(LOGFILE, "a") as f:
        f.write(json.dumps({"method": method, "path": path,
                            "body": body}) + "\n")


def turns_done(req):
    """How many of the script's calls have their output in req."""
    ours = {CALL_ID % i for i in range(len(SCRIPT))}
    return len({item.get("call_id") for item in req.get("input") or []
                if isinstance(item, dict)
                and item.get("type", "").endswith("_output")
                and item.get("call_id") in ours})


def output_of(req, n):
    """The text of call n's output in req (its parts joined)."""
    for item in req.get("input") or []:
        if isinstance(item, dict) and item.get("call_id") == CALL_ID % n \
                and item.get("type", "").endswith("_output"):
            out = item.get("output", "")
            if isinstance(out, list):
                out = "\n".join(p.get("text", "") for p in out)
            return out
    return ""


def fill(value, prev):
    """value with each "{prev:REGEX}" replaced by REGEX's first group in
    the previous call's output (a number stays a number)."""
    if isinstance(value, dict):
        return {k: fill(v, prev) for k, v in value.items()}
    if isinstance(value, str) and value.startswith("{prev:") \
            and value.endswith("}"):
        m = re.search(value[6:-1], prev)
        got = m.group(1) if m else ""
        return int(got) if got.isdigit() else got
    return value


def item_for(req, n):
    """The output item answering a request after n finished calls."""
    turn = SCRIPT[n] if n < len(SCRIPT) else {"text": "done"}
    if "call" in turn:
        args = fill(turn.get("arguments", {}),
                    output_of(req, n - 1) if n else "")
        item = {"type": "function_call", "id": "fc_standin_%d" % n,
                "call_id": CALL_ID % n, "name": turn["call"],
                "arguments": json.dumps(args), "status": "completed"}
        if "namespace" in turn:
            item["namespace"] = turn["namespace"]
        return item
    if "search" in turn:
        return {"type": "tool_search_call", "id": "ts_standin_%d" % n,
                "call_id": CALL_ID % n, "execution": "client",
                "status": "completed",
                "arguments": {"query": turn["search"]}}
    if "custom" in turn:
        return {"type": "custom_tool_call", "id": "ctc_standin_%d" % n,
                "call_id": CALL_ID % n, "name": turn["custom"],
                "input": turn["input"], "status": "completed"}
    return {"type": "message", "id": "msg_standin_%d" % n,
            "role": "assistant", "status": "completed",
            "content": [{"type": "output_text", "text": turn["text"],
                         "annotations": []}]}


def sse_events(req, n):
    """The event sequence of a streamed response carrying one item."""
    rid = "resp_standin_%d" % n
    item = item_for(req, n)
    head = {"id": rid, "object": "response", "status": "in_progress",
            "model": req.get("model", "gpt-standin"), "output": []}
    yield {"type": "response.created", "response": head}
    yield {"type": "response.output_item.added", "output_index": 0,
           "item": item}
    yield {"type": "response.output_item.done", "output_index": 0,
           "item": item}
    done = dict(head, status="completed", output=[item],
                usage={"input_tokens": 10, "output_tokens": 5,
                       "total_tokens": 15,
                       "input_tokens_details": {"cached_tokens": 0},
                       "output_tokens_details": {"reasoning_tokens": 0}})
    yield {"type": "response.completed", "response": done}


class Handler(standin.Handler):
    def do_GET(self):
        log("GET", self.path, None)
        if self.path.split("?")[0].endswith("/models"):
            self.send_json(200, {"object": "list", "data": [],
                                 "models": []})
            return
        self.send_json(404, {"error": {"message": "not here"}})

    def do_POST(self):
        req = self.read_json()
        log("POST", self.path, req)
        if not self.path.split("?")[0].endswith("/responses"):
            self.send_json(404, {"error": {"message": "not here"}})
            return
        self.send_events((e["type"], e)
                         for e in sse_events(req, turns_done(req)))


standin.serve(PORTFILE, Handler)
