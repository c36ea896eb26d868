// sessions.mjs - a session shown live on the page of `ptyvisor web`, in a
// real headless Chromium: an agent's command approved on the page, then
// its screen opened there (what it printed before, at its own size), what
// it prints after, a new size, keys an approver types reaching it and a
// watch-only page's going nowhere, how it ended and its entry of the
// history (who decided, how it ended); at most 4 at once.  Prints "PASS
// what" or "FAIL what: why" a line, for tests/web/web.sh.
//
//   node sessions.mjs URL APPROVER WATCH PTYVISOR SOCKET DIR SCREENSHOT
import { spawn } from 'node:child_process';
import net from 'node:net';
import { ask, check, failed, launch, login } from './lib.mjs';

const [url, approver, watch, ptyvisor, socket, dir, screenshot] =
    process.argv.slice(2);
const WAIT = 15000;

// The agent's command: lines on its stdout (a pipe), then a line read from
// its terminal and said back; then two questions to its terminal (status,
// attributes) and the answers it gets, said back (od -c); a line read
// again, one more.
const SCRIPT = 'for i in 1 2 3; do echo early-$i; done; ' +
    'printf "\\033[1mbold-early\\033[0m\\n"; ' +
    'read x < /dev/tty; echo "typed:$x"; ' +
    'stty -echo < /dev/tty; printf "\\033[5n\\033[c" > /dev/tty; sleep 1; ' +
    'stty -icanon min 0 time 5 < /dev/tty; echo "answers:$(dd bs=200 ' +
    'count=1 < /dev/tty 2> /dev/null | od -An -c | tr -d \' \\n\')"; ' +
    'stty sane < /dev/tty; ' +
    'read y < /dev/tty; echo "again:$y"; echo late-line';

// The text of session n's view, as xterm.js renders it.
function viewText(page, n) {
	return page.evaluate((s) => {
		const rows = document.querySelector('section.view[data-session="' +
		    s + '"] .xterm-rows');
		return rows ? [...rows.children].map((r) => r.textContent)
		    .join('\n') : '';
	}, n);
}

async function waitView(page, n, pred, what) {
	const end = Date.now() + WAIT;
	let text = '';

	while (Date.now() < end) {
		text = await viewText(page, n);
		if (pred(text))
			return text;
		await new Promise((r) => setTimeout(r, 100));
	}
	throw new Error(what + ': not seen; the view shows:\n' + text);
}

async function note(page, n) {
	return page.$eval('section.view[data-session="' + n + '"] .note',
	    (e) => e.textContent);
}

// Wait until session n's view says text.
async function waitNote(page, n, text, what) {
	await page.waitForFunction((s, t) => {
		const e = document.querySelector('section.view[data-session="' +
		    s + '"] .note');
		return e && e.textContent.includes(t);
	}, { timeout: WAIT }, n, text).catch(async () => {
		throw new Error(what + ': the note says ' + await note(page, n));
	});
}

// The lines a command printed, as a terminal shows them (no SGR).
function lines(out) {
	return out.trim().split('\n').map((l) => l.replace(/\x1b\[[0-9;]*m/g,
	    ''));
}

// Open session n's view from the sessions list.
async function show(page, n) {
	const b = await page.waitForSelector('button[data-view="' + n + '"]',
	    { timeout: WAIT });
	await b.click();
	await page.waitForSelector('section.view[data-session="' + n +
	    '"] .xterm-rows', { timeout: WAIT });
}

// One request on the control socket, as any client sends it.
function control(line) {
	return new Promise((resolve, reject) => {
		const s = net.createConnection(socket);
		let got = '';

		s.on('error', reject);
		s.on('data', (d) => {
			got += d;
			if (got.split('\n').length > 2) {
				s.end();
				resolve(got);
			}
		});
		s.write('{"op":"hello","version":1}\n' + JSON.stringify(line) +
		    '\n');
	});
}

const browser = await launch(dir + '/sessions');
let agent = null;

try {
	const page = await login(browser, url, approver, 1400, 1000);

	// An agent's command, asked, approved on the page.
	agent = spawn(ptyvisor, ['exec', '--cwd', dir, '--', 'dash', '-c',
	    SCRIPT], { stdio: ['ignore', 'pipe', 'pipe'] });
	let out = '';
	agent.stdout.on('data', (d) => { out += d; });
	const status = new Promise((r) => agent.on('close', r));
	const card = (await page.waitForFunction(() => {
		for (const c of document.querySelectorAll('#pending .req'))
			if (c.querySelector('pre.cmd').textContent
			    .includes('early-'))
				return c;
		return null;
	}, { timeout: WAIT })).asElement();
	await (await card.waitForSelector(
	    'button[data-act="approve"]:not([disabled])')).click();
	const end = Date.now() + WAIT;
	while (!out.includes('bold-early') && Date.now() < end)
		await new Promise((r) => setTimeout(r, 50));
	const n = await page.waitForFunction(() => {
		for (const li of document.querySelectorAll('#sessions li'))
			if (li.textContent.includes('early-'))
				return Number(li.dataset.session);
		return null;
	}, { timeout: WAIT }).then((h) => h.jsonValue());

	// Its screen: what it printed before the view opened.  The button is
	// taken, then another request changes the page's lists before it is
	// pressed: the row and its button stay where they were (a tap on a
	// phone is not lost to a list redrawn under it).
	const b = await page.waitForSelector('button[data-view="' + n + '"]',
	    { timeout: WAIT });
	const other = spawn(ptyvisor, ['exec', '--', 'printf', 'another-one'],
	    { stdio: 'ignore' });
	const asked = await page.waitForFunction(() => {
		for (const c of document.querySelectorAll('#pending .req'))
			if (c.querySelector('pre.cmd').textContent
			    .includes('another-one'))
				return c.dataset.request;
		return null;
	}, { timeout: WAIT }).then((h) => h.jsonValue());
	await b.click();
	await page.waitForSelector('section.view[data-session="' + n +
	    '"] .xterm-rows', { timeout: WAIT });
	check(true, 'a session\'s button pressed after the lists changed ' +
	    'still opens its view');
	await control({ op: 'decide', id: 'd', request: Number(asked),
	    decision: 'deny', reason: 'not this one' });
	await new Promise((r) => other.on('close', r));
	let text = await waitView(page, n, (t) => t.includes('bold-early'),
	    'the screen so far');
	const before = lines(out);
	check(before.length === 4 && before.every((l) => text.includes(l)),
	    'the view shows what the session printed before it opened: ' +
	    before.join(', '), text);
	const bold = await page.evaluate((s) => [...document.querySelectorAll(
	    'section.view[data-session="' + s + '"] .xterm-rows span')]
	    .some((e) => e.textContent.includes('bold-early') &&
	    (e.classList.contains('xterm-bold') ||
	    getComputedStyle(e).fontWeight >= 600)), n);
	check(bold, 'with its attributes (bold)');
	const rows = await page.$$eval('section.view[data-session="' + n +
	    '"] .xterm-rows > div', (d) => d.length);
	check(rows === 50 && (await note(page, n)).includes('200x50'),
	    'at the session\'s own size, 200x50 (ptyvisor exec\'s off a ' +
	    'terminal)', rows + ' rows; ' + await note(page, n));
	const entries = await page.$eval('section.view[data-session="' + n +
	    '"] .entries', (e) => e.textContent);
	check(entries.includes('Running'), 'a running session has no entry ' +
	    'in the history yet', entries);

	// A new size: drawn again at it.
	await control({ op: 'resize', id: 'r', session: n, cols: 100,
	    rows: 30 });
	await waitNote(page, n, '100x30', 'the new size');
	text = await waitView(page, n, (t) => t.includes('early-1'),
	    'the screen at the new size');
	check(true, 'a new size: the view drawn again at it, 100x30');

	// Watch-only: sees it, cannot type.
	const wpage = await login(browser, url, watch, 1400, 1000);
	await show(wpage, n);
	await waitView(wpage, n, (t) => t.includes('bold-early'),
	    'the watch-only page\'s view');
	check(true, 'a watch-only page sees the screen too');
	await wpage.click('section.view[data-session="' + n + '"] .xterm');
	await wpage.keyboard.type('watch-typed');
	await wpage.keyboard.press('Enter');
	const refused = await ask(wpage, watch, [{ op: 'view', session: n },
	    { op: 'input', session: n, data: 'watch-raw\r' }]);
	check(refused.ok === false && /watches only/.test(refused.message),
	    'keys a watch-only page sends anyway are refused',
	    JSON.stringify(refused));

	// The approver types: the session reads it.
	await new Promise((r) => setTimeout(r, 1000));
	await page.click('section.view[data-session="' + n + '"] .xterm');
	await page.keyboard.type('from-the-page');
	await page.keyboard.press('Enter');
	text = await waitView(page, n, (t) => t.includes('typed:'),
	    'the typed line said back');
	check(text.includes('typed:from-the-page') &&
	    !text.includes('watch-typed') && !text.includes('watch-raw'),
	    'keys typed in an approver\'s view reach the session; the ' +
	    'watch-only page\'s never did', text);
	const answers = await (async () => {
		const until = Date.now() + WAIT;
		while (!/answers:.*\n/.test(out) && Date.now() < until)
			await new Promise((r) => setTimeout(r, 50));
		return (/answers:(.*)\n/.exec(out) || ['', 'none'])[1];
	})();
	check(answers.split('[0n').length === 2 && answers.split('c').length ===
	    2, 'the program\'s questions to its terminal are answered once, ' +
	    'by the server, not again by the page\'s terminal', answers);
	await page.keyboard.type('twice');
	await page.keyboard.press('Enter');

	// It ends: how, and its entry of the history.
	const code = await Promise.race([status, new Promise((r) =>
	    setTimeout(() => r('no exit'), WAIT))]);
	check(code === 0 && out.includes('typed:from-the-page\n') &&
	    out.includes('again:twice\nlate-line\n'), 'the session ends, ' +
	    'the agent got its lines',
	    code + ' ' + JSON.stringify(out));
	text = await waitView(page, n, (t) => t.includes('late-line'),
	    'the last line');
	const printed = lines(out);
	check(printed.every((l) => text.includes(l)), 'the view shows every ' +
	    'line the session printed: ' + printed.join(', '), text);
	await waitNote(page, n, 'ended: exit 0', 'its end');
	check(true, 'the view says how it ended: exit 0');
	const entry = await page.waitForFunction((s) => {
		const e = document.querySelector('section.view[data-session="' +
		    s + '"] .entries');
		return e && e.textContent.includes('exit 0') ?
		    [...e.querySelectorAll('dt')].map((d) => d.textContent +
		    '=' + d.nextSibling.textContent) : null;
	}, { timeout: WAIT }, n).then((h) => h.jsonValue(), () => []);
	check(entry.some((r) => r.startsWith('command=dash -c ')) &&
	    entry.includes('ending=exit 0') &&
	    entry.includes('by=web (127.0.0.1, token approver)') &&
	    entry.some((r) => /^duration=[0-9]/.test(r)) &&
	    entry.some((r) => r.startsWith('start=')),
	    'its entry of the history: command, start, duration, how it ' +
	    'ended, who decided', entry.join('; '));
	await page.screenshot({ path: screenshot, fullPage: true });

	// Bounds: four views a page.
	const many = await ask(page, approver, [1, 2, 3, 4, 5].map((s) =>
	    ({ op: 'view', session: 100000 + s })));
	check(many.ok === false && /at most 4/.test(many.message),
	    'a page shows at most 4 sessions at once', JSON.stringify(many));
	const notshown = await ask(page, approver, [{ op: 'input',
	    session: n, data: 'x' }]);
	check(notshown.ok === false && /not shown/.test(notshown.message),
	    'keys only into a session the page shows',
	    JSON.stringify(notshown));
} catch (err) {
	check(false, 'the sessions on the page', err.stack);
} finally {
	if (agent !== null && agent.exitCode === null)
		agent.kill('SIGKILL');
	await browser.close();
}
process.exit(failed ? 1 : 0);
