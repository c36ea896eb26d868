// sdk.mjs - `ptyvisor mcp` driven by an official MCP SDK client over stdio,
// against the real `ptyvisor serve` that tests/e2e/mcp.sh started.
//
//   node sdk.mjs v1|v2 PTYVISOR WORKDIR
//
// v1 is @modelcontextprotocol/sdk (the initialize handshake), v2 is
// @modelcontextprotocol/client (probes server/discover, then speaks
// 2026-07-28 statelessly).  Prints one line per check, "ok - NAME" or
// "not ok - NAME", with "# ..." diagnostics; mcp.sh turns them into TAP.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";

const [era, PV, W] = process.argv.slice(2);
let Client, StdioClientTransport;
if (era === "v1") {
	({ Client } = await import("@modelcontextprotocol/sdk/client/index.js"));
	({ StdioClientTransport } = await import(
	    "@modelcontextprotocol/sdk/client/stdio.js"));
} else {
	({ Client } = await import("@modelcontextprotocol/client"));
	({ StdioClientTransport } = await import(
	    "@modelcontextprotocol/client/stdio"));
}

function check(cond, name, detail) {
	console.log(`${cond ? "ok" : "not ok"} - ${era}: ${name}`);
	if (!cond && detail !== undefined)
		console.log(`# ${JSON.stringify(detail).slice(0, 2000)}`);
	return cond;
}

// v1's callTool(params, resultSchema, options); v2's callTool(params, options).
const callWith = (params, options) => era === "v1" ?
    client.callTool(params, undefined, options) :
    client.callTool(params, options);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const text = (res) => (res.content || []).map((c) => c.text).join("");
const pv = (...args) => execFileSync(PV, args, { encoding: "utf8" });

// The request waiting whose command contains word: its number.
async function waitingRequest(word) {
	for (let i = 0; i < 200; i++) {
		const line = pv("pending").split("\n").find((l) =>
		    l.includes(word));
		if (line)
			return line.split("\t")[0];
		await sleep(100);
	}
	return null;
}

const opts = era === "v2" ?
    { versionNegotiation: { mode: "auto" } } : {};
const client = new Client({ name: `ptyvisor-test-${era}`, version: "1" },
    opts);
const transport = new StdioClientTransport({
	command: PV, args: ["mcp", "--wait", "40"], cwd: W, env: process.env, stderr: "pipe",
});
let stderr = "";
transport.stderr?.on("data", (d) => { stderr += d; });
await client.connect(transport);

if (era === "v2") {
	check(client.getProtocolEra() === "modern" &&
	    client.getNegotiatedProtocolVersion() === "2026-07-28",
	    "the v2 client probed server/discover and speaks 2026-07-28",
	    [client.getProtocolEra(), client.getNegotiatedProtocolVersion()]);
	check(/person may deny|denied/.test(client.getInstructions() || ""),
	    "server/discover's instructions say a person may deny a call",
	    client.getInstructions());
} else {
	check(client.getServerVersion()?.name === "ptyvisor",
	    "initialize: serverInfo names ptyvisor", client.getServerVersion());
	check(/denied/.test(client.getInstructions() || ""),
	    "initialize: instructions say how a denial reads");
}

// The long command first: it runs while the other checks do.
const long = await client.callTool({ name: "run", arguments: {
	command: "sleep 70; echo done", wait_s: 2 } });
check(long.structuredContent?.running === true &&
    long.structuredContent.exit_code === null &&
    Number.isInteger(long.structuredContent.session) && !long.isError,
    "run 'sleep 70; echo done' with wait_s 2 returns running and a session",
    long);
const longSession = long.structuredContent?.session;
// Claude Code and Codex hand their model the structured part alone: it
// carries what the text says, the call to make next among it.
check(long.structuredContent?.next_call?.tool === "session_output" &&
    long.structuredContent.next_call.arguments?.session === longSession &&
    long.structuredContent.next_call.arguments?.wait_ms === 40000 &&
    /session_output/.test(long.structuredContent.message) &&
    text(long) === long.structuredContent.output +
    long.structuredContent.message,
    "run still running: the structured part names the next call (wait_ms " +
    "as --wait says) and agrees with the text", long);

const tools = (await client.listTools()).tools;
const names = tools.map((t) => t.name).sort();
check(JSON.stringify(names) === JSON.stringify(["run", "session_kill",
    "session_list", "session_output", "session_send", "session_start"]),
    "tools/list: the six tools", names);
const runTool = tools.find((t) => t.name === "run");
check(runTool?.inputSchema?.properties?.wait_s &&
    runTool?.outputSchema?.properties?.exit_code &&
    /deni/.test(runTool.description) && /wait_s/.test(runTool.description),
    "run: schemas, and a description that speaks of denial and wait_s");
check(/default 40\)/.test(runTool?.description) &&
    /wait_ms 40000/.test(runTool?.description) &&
    /default 40;/.test(runTool?.inputSchema?.properties?.wait_s?.description) &&
    runTool?.outputSchema?.properties?.output &&
    runTool?.outputSchema?.properties?.next_call,
    "run: the description's waits follow --wait; the output schema has " +
    "output and next_call", runTool);

let r = await client.callTool({ name: "run", arguments: {
	command: "echo hello from $0; printf 'two\\n'", why: "a test" } });
check(!r.isError && r.structuredContent?.exit_code === 0 &&
    /hello from sh\ntwo\n\[exit 0\]$/.test(text(r)),
    "run: the rendered text, ending with the exit status", r);
check(r.structuredContent?.output === "hello from sh\ntwo\n" &&
    r.structuredContent.message === "[exit 0]" &&
    r.structuredContent.ending === "exit 0" &&
    r.structuredContent.next_call === null &&
    text(r) === r.structuredContent.output + r.structuredContent.message,
    "run: the structured part carries the output and agrees with the text",
    r.structuredContent);
check(existsSync(r.structuredContent?.recording || "/nonexistent"),
    "run: the recording's path exists", r.structuredContent);

r = await client.callTool({ name: "run", arguments: { argv: ["sh", "-c",
    "echo out; exit 3"] } });
check(!r.isError && r.structuredContent?.exit_code === 3 &&
    /\[exit 3\]$/.test(text(r)), "run argv: a non-zero exit is a normal result",
    r);

r = await client.callTool({ name: "run", arguments: {
	command: "rm -rf /nonexistent-pv-mcp" } });
check(r.isError && r.structuredContent?.denied === true &&
    /deny rm/.test(r.structuredContent.reason) && /Denied/.test(text(r)),
    "deny by rule: isError, denied, the rule as reason", r);
check(r.structuredContent?.message === text(r) &&
    /do not retry/.test(r.structuredContent.message),
    "deny by rule: the structured part says what the text says", r);

// A person approves from the shell.
let pending = client.callTool({ name: "run", arguments: {
	command: `mkdir ${W}/approved-${era}`, why: "approval test" } });
let req = await waitingRequest(`approved-${era}`);
if (req)
	pv("approve", req);
r = await pending;
check(req && !r.isError && r.structuredContent?.exit_code === 0 &&
    existsSync(`${W}/approved-${era}`),
    "approval: waits, 'ptyvisor approve' lets it run", r);

pending = client.callTool({ name: "run", arguments: {
	command: `mkdir ${W}/refused-${era}` } });
req = await waitingRequest(`refused-${era}`);
if (req)
	pv("deny", req, "--reason", "not on a Friday");
r = await pending;
check(r.isError && r.structuredContent?.denied === true &&
    r.structuredContent.reason === "not on a Friday" &&
    text(r).includes("not on a Friday") && !existsSync(`${W}/refused-${era}`),
    "denied by a person: the reason reaches the agent", r);

r = await client.callTool({ name: "run", arguments: {
	command: "sleep 30", timeout_s: 1 } });
check(r.isError && r.structuredContent?.timed_out === true,
    "timeout_s: timed out, isError", r);

r = await client.callTool({ name: "run", arguments: {
	command: `touch ${process.env.OUTSIDE}/pv-mcp-escape-${era}; ` +
	    `touch ${W}/inside-${era}`, cwd: W } });
check(!existsSync(`${process.env.OUTSIDE}/pv-mcp-escape-${era}`) &&
    existsSync(`${W}/inside-${era}`) &&
    /Read-only|Permission denied/.test(text(r)),
    "sandbox: writes outside the working directory fail, inside succeed", r);
r = await client.callTool({ name: "run", arguments: {
	command: `touch ${W}/ro-${era}`, sandbox: "read-only" } });
check(r.structuredContent?.exit_code !== 0 && !existsSync(`${W}/ro-${era}`),
    "sandbox read-only: not even the working directory", r);

// Progress, at most twice a second, with the latest lines.
const progress = [];
const t0 = Date.now();
r = await callWith({ name: "run", arguments: {
	command: "for i in 1 2 3 4 5 6; do echo tick$i; sleep 0.3; done" } },
    { onprogress: (p) => progress.push([Date.now(), p]) });
const took = (Date.now() - t0) / 1000;
check(progress.length >= 2 && progress.some(([, p]) =>
    /tick/.test(p.message || "")),
    "progress: notifications with the latest lines", progress);
check(progress.length <= Math.ceil(took * 2) + 1,
    `progress: at most twice a second (${progress.length} in ${took} s)`);

// Cancellation kills the command; the history says so.
const ac = new AbortController();
pending = callWith({ name: "run", arguments: {
	command: `echo cancel-me-${era}; sleep 60` } }, { signal: ac.signal });
await sleep(1500);
ac.abort();
await pending.catch(() => {});
let hist = "";
for (let i = 0; i < 50 && !/cancelled/.test(hist); i++) {
	await sleep(100);
	hist = pv("history", "--grep", `cancel-me-${era}`);
}
check(/cancelled/.test(hist), "cancellation: the history says cancelled",
    hist);

// Truncation: head and tail, the gap marked, the recording named.
// (wait_s long: a slow build, e.g. under sanitizers, must not make it a
// still-running answer.)
r = await callWith({ name: "run", arguments: {
	command: "seq 1 30000", wait_s: 280 } }, { timeout: 300000 });
const tr = text(r);
check(r.structuredContent?.truncated === true &&
    tr.startsWith("1\n2\n3\n") && /\n30000\n\[exit 0\]$/.test(tr) &&
    /bytes not shown; all of it is in .*\.cast/.test(tr) &&
    Buffer.byteLength(tr) < 64 * 1024 + 512,
    `truncation: 64 KiB head and tail (${Buffer.byteLength(tr)} bytes)`,
    [r.structuredContent, tr.slice(0, 100), tr.slice(-100)]);

// Several calls at once: the first waits for what the second does.
const flag = `${W}/flag-${era}`;
const [a, b] = await Promise.all([
	client.callTool({ name: "run", arguments: { command:
	    `i=0; while [ ! -e ${flag} ] && [ $i -lt 200 ]; do sleep 0.1; ` +
	    `i=$((i+1)); done; echo saw-flag` } }),
	(async () => { await sleep(300); return client.callTool({ name: "run",
	    arguments: { command: `touch ${flag}` } }); })(),
]);
check(/saw-flag/.test(text(a)) && b.structuredContent?.exit_code === 0,
    "concurrency: two calls in flight at once", [a, b]);

// An interactive session.
r = await client.callTool({ name: "session_start", arguments: {
	argv: ["sh"] } });
const s = r.structuredContent?.session;
check(Number.isInteger(s) && !r.isError, "session_start: a session", r);
check(r.structuredContent?.running === true &&
    r.structuredContent.next_call?.tool === "session_output" &&
    r.structuredContent.next_call.arguments?.session === s &&
    typeof r.structuredContent.output === "string" &&
    text(r) === r.structuredContent.output + r.structuredContent.message,
    "session_start: the structured part says what to call next", r);
r = await client.callTool({ name: "session_send", arguments: {
	session: s, text: "echo hi-$((6*7))\n" } });
check(!r.isError, "session_send", r);
let seen = "";
for (let i = 0; i < 20 && !/hi-42/.test(seen); i++) {
	r = await client.callTool({ name: "session_output", arguments: {
		session: s, wait_ms: 500 } });
	seen += text(r);
}
check(/hi-42/.test(seen) && r.structuredContent?.running === true,
    "session_output: the screen shows what was typed", seen);
r = await client.callTool({ name: "session_list", arguments: {} });
check(r.structuredContent?.sessions?.some((x) => x.session === s &&
    x.running), "session_list: it is there, running", r);
r = await client.callTool({ name: "session_kill", arguments: {
	session: s } });
check(r.structuredContent?.running === false, "session_kill: it ended", r);

// Paging with since: a long output read in 1 KiB pages.
r = await client.callTool({ name: "session_start", arguments: {
	command: "seq 1 3000" } });
const p = r.structuredContent?.session;
let since = 0, all = "", pages = 0;
for (; pages < 100; pages++) {
	r = await client.callTool({ name: "session_output", arguments: {
		session: p, since, wait_ms: 2000, max_bytes: 1024 } });
	all += r.structuredContent.output;
	since = r.structuredContent.next;
	if (!r.structuredContent.running && !r.structuredContent.more)
		break;
}
const want = Array.from({ length: 3000 }, (_, i) => `${i + 1}\n`).join("");
check(all === want && pages > 10,
    `session_output since: all of it in ${pages} pages`, all.slice(-100));

// The long command, followed to its end.
let end;
for (let i = 0; i < 5; i++) {
	end = await client.callTool({ name: "session_output", arguments: {
		session: longSession, wait_ms: 50000 } });
	if (end.structuredContent?.running === false)
		break;
}
check(end?.structuredContent?.running === false &&
    end.structuredContent.exit_code === 0 && /done/.test(text(end)),
    "the long command: session_output later shows done and exit 0", end);

r = await client.callTool({ name: "no_such_tool", arguments: {} })
    .catch((e) => e);
check(r instanceof Error || r.isError, "an unknown tool is an error", r);

await client.close();
check(!/ptyvisor mcp:.*(error|fatal)|Sanitizer|runtime error/i.test(stderr),
    "nothing bad on stderr",
    stderr);
