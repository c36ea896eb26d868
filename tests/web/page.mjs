// page.mjs - the approval page of `ptyvisor web` in a real headless
// Chromium (Debian's, driven by puppeteer-core): agents' requests made with
// `ptyvisor exec` against the test's own server, decided by tapping the
// page.  Prints one line per check, "PASS what" or "FAIL what: why", for
// tests/web/web.sh to count.
//
//   node page.mjs URL APPROVER WATCH PTYVISOR SCREENSHOT DIR
import { spawn, execFileSync } from 'node:child_process';
import http from 'node:http';
import { ask, check, failed, launch } from './lib.mjs';

const [url, approver, watch, ptyvisor, screenshot, dir] = process.argv.slice(2);
const WAIT = 15000;

// An agent's command through the shim: its output, errors and status.
function agent(argv) {
	const p = spawn(ptyvisor, ['exec', '--cwd', dir, '--', ...argv],
	    { stdio: ['ignore', 'pipe', 'pipe'] });
	const r = { out: '', err: '', code: null };

	p.stdout.on('data', (d) => { r.out += d; });
	p.stderr.on('data', (d) => { r.err += d; });
	r.done = new Promise((resolve) => p.on('close', (code) => {
		r.code = code;
		resolve(r);
	}));
	r.kill = () => p.kill('SIGKILL');
	return r;
}

function within(promise, ms, what) {
	return Promise.race([promise, new Promise((_, reject) =>
	    setTimeout(() => reject(new Error(what + ': no answer in ' + ms +
	    ' ms')), ms))]);
}

// The card of the waiting request whose command shows text.
async function card(page, text) {
	const h = await page.waitForFunction((t) => {
		for (const c of document.querySelectorAll('#pending .req'))
			if (c.querySelector('pre.cmd').textContent.includes(t))
				return c;
		return null;
	}, { timeout: WAIT }, text);
	return h.asElement();
}

// Tap a card's button once the guard has let it be tapped.
async function tap(c, act) {
	const b = await c.waitForSelector('button[data-act="' + act + '"]:not([disabled])',
	    { timeout: WAIT });
	await b.tap();
}

async function gone(page, text) {
	await page.waitForFunction((t) => ![...document.querySelectorAll(
	    '#pending pre.cmd')].some((p) => p.textContent.includes(t)),
	    { timeout: WAIT }, text);
}

function pending() {
	return execFileSync(ptyvisor, ['pending']).toString();
}

const browser = await launch(dir);
const agents = [];

try {
	const page = await browser.newPage();
	await page.setViewport({ width: 390, height: 844, isMobile: true,
	    hasTouch: true, deviceScaleFactor: 1 });
	await page.goto(url + '#token=' + approver);
	await page.waitForFunction(() => document.getElementById('status')
	    .textContent === 'live', { timeout: WAIT });
	check(!page.url().includes(approver), 'the token leaves the address ' +
	    'once the page holds it', page.url());
	check(await page.evaluate(() => document.cookie) === '',
	    'no cookie holds it');

	// Approve: the agent's command runs.
	let a = agent(['printf', 'approved-run\\n']);
	agents.push(a);
	let c = await card(page, 'approved-run');
	const rows = await c.evaluate((n) => [...n.querySelectorAll('dt')]
	    .map((d) => d.textContent + '=' + d.nextSibling.textContent));
	check(rows.includes('cwd=' + dir) && rows.includes('sandbox=' +
	    'workspace-write') && rows.includes('network=no') &&
	    rows.includes('why=(no reason given)') &&
	    rows.some((r) => r.startsWith('asked by=mode on-request')),
	    'a request shows its cwd, sandbox, network, reason and rule',
	    rows.join('; '));
	await tap(c, 'approve');
	await within(a.done, WAIT, 'approve');
	check(a.code === 0 && a.out === 'approved-run\n',
	    'tapping approve runs the agent\'s command', a.code + ' ' + a.out);
	await gone(page, 'approved-run');
	check(true, 'an approved request leaves the page');
	const past = await page.waitForFunction(() => {
		for (const li of document.querySelectorAll('#history li'))
			if (li.textContent.includes('approved-run'))
				return li.textContent;
		return null;
	}, { timeout: WAIT }).then((h) => h.jsonValue(), () => 'none');
	check(past.includes('exited 0') &&
	    past.includes('by web (127.0.0.1, token approver)'),
	    'the recent history shows it ran, decided by the web', past);

	// Deny with a reason the agent receives; another request arriving
	// while it is typed neither takes the focus from it nor moves it.
	a = agent(['printf', 'denied-run\\n']);
	agents.push(a);
	c = await card(page, 'denied-run');
	await tap(c, 'deny');
	await (await c.waitForSelector('input.field')).type('not from ');
	const b = agent(['printf', 'meanwhile\\n']);
	agents.push(b);
	await card(page, 'meanwhile');
	await page.keyboard.type('a phone');
	await tap(c, 'confirm');
	await within(a.done, WAIT, 'deny');
	check(a.code === 126 && /: not from a phone$/m.test(a.err) &&
	    a.out === '', 'deny with a typed reason: the agent ' +
	    'exits 126 with it on stderr, typed on while another request ' +
	    'came', a.code + ' ' + a.err);
	execFileSync(ptyvisor, ['deny', await (await card(page, 'meanwhile'))
	    .evaluate((n) => n.dataset.request)]);
	await within(b.done, WAIT, 'meanwhile');

	// Edit first: what runs is the command as edited.
	a = agent(['printf', 'as-asked\\n']);
	agents.push(a);
	c = await card(page, 'as-asked');
	await tap(c, 'edit');
	const field = await c.waitForSelector('input.field');
	await field.evaluate((i) => { i.value = ''; });
	await field.type("printf 'as-edited\\n'");
	await tap(c, 'confirm');
	await within(a.done, WAIT, 'edit');
	check(a.code === 0 && a.out === 'as-edited\n',
	    'edit first: the edited command runs', a.code + ' ' + a.out);

	// Approve and remember: the next one runs unasked.
	a = agent(['printf', 'remember-me\\n']);
	agents.push(a);
	c = await card(page, 'remember-me');
	await tap(c, 'remember');
	const rule = await (await c.waitForSelector('input.field'))
	    .evaluate((i) => i.value);
	check(rule === "allow printf 'remember-me\\n'",
	    'approve and remember offers the rule to edit', rule);
	await tap(c, 'confirm');
	await within(a.done, WAIT, 'remember');
	a = agent(['printf', 'remember-me\\n']);
	agents.push(a);
	await within(a.done, WAIT, 'remembered');
	check(a.code === 0 && a.out === 'remember-me\n',
	    'the remembered rule lets the same command run unasked',
	    a.code + ' ' + a.out);

	// Answered elsewhere: the card goes at once.
	a = agent(['printf', 'elsewhere\\n']);
	agents.push(a);
	c = await card(page, 'elsewhere');
	const id = await c.evaluate((n) => n.dataset.request);
	execFileSync(ptyvisor, ['deny', id, '--reason', 'from the shell']);
	await gone(page, 'elsewhere');
	check(true, 'a request denied elsewhere leaves the page at once');
	await within(a.done, WAIT, 'elsewhere');

	// Markup and bidi controls in a command: shown escaped, never run.
	a = agent(['printf', '<img src=x onerror=window.__pwned=1>\u202egnp.exe']);
	agents.push(a);
	c = await card(page, 'gnp.exe');
	const shown = await c.evaluate((n) => ({
		cmd: n.querySelector('pre.cmd').textContent,
		imgs: document.querySelectorAll('#pending img').length,
		warn: n.querySelector('.warn') !== null,
		pwned: window.__pwned,
	}));
	check(shown.imgs === 0 && shown.pwned === undefined &&
	    shown.cmd.includes('<img src=x onerror=window.__pwned=1>'),
	    'a command holding <img onerror> is shown as text, never markup',
	    JSON.stringify(shown));
	check(!shown.cmd.includes('\u202e') && shown.cmd.includes('\\u202e') &&
	    shown.warn, 'U+202E is shown escaped (\\u202e), with the warning',
	    JSON.stringify(shown));
	await c.waitForSelector('button[data-act="approve"]:not([disabled])');
	await page.screenshot({ path: screenshot });
	check(true, 'screenshot at 390x844: ' + screenshot);

	// The console on the phone's page too: what the server draws.
	await page.click('#console-open');
	const drawn = await page.waitForFunction(() => {
		const rows = document.querySelector('.xterm-rows');
		return rows && rows.textContent.includes('1 PENDING: #');
	}, { timeout: WAIT }).then(() => '', async () => page.evaluate(() =>
	    document.getElementById('console-note').textContent + ' | ' +
	    (document.querySelector('.xterm-rows') || { textContent: 'no rows' })
	    .textContent));
	check(drawn === '', 'the console opens on the page, drawn by the ' +
	    'server (its status line names the waiting request)', drawn);

	// Watch-only: sees the request, cannot decide it.
	const ctx = await browser.createBrowserContext();
	const wpage = await ctx.newPage();
	await wpage.setViewport({ width: 390, height: 844 });
	await wpage.goto(url + '#token=' + watch);
	const wc = await card(wpage, 'gnp.exe');
	check(await wc.$('button') === null &&
	    await wpage.$eval('#watch-note', (n) => !n.hidden),
	    'watch-only: the request shown, no button to decide it');
	const wid = await wc.evaluate((n) => n.dataset.request);
	const answer = await ask(wpage, watch, [{ op: 'decide',
	    request: Number(wid), decision: 'approve', tag: 'w' }]);
	check(answer.ok === false && /watches only/.test(answer.message) &&
	    pending().split('\n').some((l) => l.startsWith(wid + '\t')),
	    'watch-only: a decision sent anyway is refused, the request waits',
	    JSON.stringify(answer));
	execFileSync(ptyvisor, ['deny', wid]);
	await within(a.done, WAIT, 'markup');
	check(a.code === 126, 'the markup command never ran', String(a.code));
	await ctx.close();

	// A message past the bound (16 KiB) closes the page's connection.
	const big = await page.evaluate((t) => new Promise((resolve) => {
		const ws = new WebSocket('ws://' + location.host + '/ws',
		    ['ptyvisor', 'token.' + t]);
		ws.onopen = () => ws.send(JSON.stringify({ op: 'decide',
		    request: 1, decision: 'deny', reason: 'x'.repeat(20000) }));
		ws.onclose = () => resolve('closed');
		setTimeout(() => resolve('open'), 5000);
	}), approver);
	check(big === 'closed', 'a message over 16 KiB closes its connection',
	    big);

	// Pages at once are bounded (16): one more is refused, the first
	// page goes on.
	const opened = await page.evaluate((t) => new Promise((resolve) => {
		const all = [];
		let open = 0, done = 0;

		for (let i = 0; i < 20; i++) {
			const ws = new WebSocket('ws://' + location.host + '/ws',
			    ['ptyvisor', 'token.' + t]);
			all.push(ws);
			ws.onopen = () => { open++; };
			ws.onclose = ws.onerror = () => {
				done++;
			};
		}
		setTimeout(() => {
			all.forEach((ws) => ws.close());
			resolve(open);
		}, 3000);
	}), approver);
	check(opened > 0 && opened < 20 && await page.evaluate(() =>
	    document.getElementById('status').textContent) === 'live',
	    'pages at once are bounded: ' + opened + ' of 20 more opened, ' +
	    'the page stays live');

	// No token: the login form, and 401 from the API.
	const nctx = await browser.createBrowserContext();
	const npage = await nctx.newPage();
	await npage.goto(url);
	await npage.waitForSelector('#login:not([hidden])', { timeout: WAIT });
	const status = await npage.evaluate(async () =>
	    (await fetch('/api/state')).status);
	const bad = await npage.evaluate(async () => (await fetch('/api/state',
	    { headers: { Authorization: 'Bearer ' + '0'.repeat(64) } })).status);
	check(status === 401 && bad === 401, 'no token, or a wrong one: 401',
	    status + ' ' + bad);
	await nctx.close();

	// A WebSocket from another origin (a page an agent serves on
	// localhost) is refused, even with the approver token.
	const other = http.createServer((req, res) => {
		res.setHeader('content-type', 'text/html');
		res.end('<!doctype html><title>other</title>');
	});
	await new Promise((r) => other.listen(0, '127.0.0.1', r));
	const opage = await browser.newPage();
	await opage.goto('http://127.0.0.1:' + other.address().port + '/');
	const wsurl = url.replace(/^http/, 'ws') + 'ws';
	const got = await opage.evaluate((u, t) => new Promise((resolve) => {
		const ws = new WebSocket(u, ['ptyvisor', 'token.' + t]);
		ws.onopen = () => resolve('open');
		ws.onerror = () => resolve('refused');
		setTimeout(() => resolve('timeout'), 5000);
	}), wsurl, approver);
	check(got === 'refused', 'a WebSocket from another origin is refused',
	    got);
	other.close();
} catch (err) {
	check(false, 'the page', err.stack);
} finally {
	for (const a of agents)
		if (a.code === null)
			a.kill();
	await browser.close();
}
process.exit(failed ? 1 : 0);
