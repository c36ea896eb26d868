// console.mjs - the console on the page of `ptyvisor web`, in a real
// headless Chromium: xterm.js shows what the server draws, keys typed in
// it reach a session, an agent's request approved with the console's own
// keys there, a watch-only token's console takes no keys.  Prints "PASS
// what" or "FAIL what: why" a line, for tests/web/console.sh.
//
//   node console.mjs URL APPROVER WATCH DIR SCREENSHOT PTYVISOR
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { check, failed, launch, login } from './lib.mjs';

const [url, approver, watch, dir, screenshot, ptyvisor] =
    process.argv.slice(2);
const WAIT = 15000;

// The terminal's text as xterm.js renders it (its DOM rows).
function screen(page) {
	return page.evaluate(() => {
		const rows = document.querySelector('.xterm-rows');
		return rows ? [...rows.children].map((r) => r.textContent)
		    .join('\n') : '';
	});
}

async function see(page, text) {
	await page.waitForFunction((t) => {
		const rows = document.querySelector('.xterm-rows');
		return rows && rows.textContent.includes(t);
	}, { timeout: WAIT }, text);
}

async function open(browser, token) {
	const page = await login(browser, url, token, 1000, 700);

	await page.click('#console-open');
	await page.waitForSelector('.xterm-rows', { timeout: WAIT });
	return page;
}

const browser = await launch(dir);

try {
	const page = await open(browser, approver);
	await see(page, 'mark-');
	check(true, 'the console shows the session the server holds');
	await page.click('.xterm');
	await page.keyboard.type('echo $((6*7))-from-the-browser');
	await page.keyboard.press('Enter');
	await see(page, '42-from-the-browser');
	check(true, 'keys typed in the browser reach the session, its ' +
	    'output comes back');
	await page.screenshot({ path: screenshot });

	// An agent's request, approved with the console's keys typed in the
	// browser: the prefix, a, then y.
	const made = dir + '/approved-in-the-browser';
	const agent = spawn(ptyvisor, ['exec', '--cwd', dir, '--', 'touch',
	    made], { stdio: 'ignore' });
	const status = new Promise((resolve) => agent.on('close', resolve));
	await see(page, 'PENDING');
	await page.keyboard.down('Control');
	await page.keyboard.press('g');
	await page.keyboard.up('Control');
	await page.keyboard.press('a');
	await see(page, 'approve request #');
	await page.keyboard.press('y');
	const code = await Promise.race([status, new Promise((r) =>
	    setTimeout(() => r('no answer'), WAIT))]);
	check(code === 0 && fs.existsSync(made), 'an agent\'s request ' +
	    'approved with keys typed in the browser console runs', code);

	const wpage = await open(browser, watch);
	await see(wpage, '42-from-the-browser');
	await wpage.click('.xterm');
	await wpage.keyboard.type('echo watch-typed');
	await wpage.keyboard.press('Enter');
	await new Promise((r) => setTimeout(r, 1500));
	check(!(await screen(page)).includes('watch-typed'),
	    'a watch-only console shows the session, its keys go nowhere');
} catch (err) {
	check(false, 'the console', err.stack);
} finally {
	await browser.close();
}
process.exit(failed ? 1 : 0);
