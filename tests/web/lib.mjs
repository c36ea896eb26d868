// lib.mjs - what the browser tests share: a line a check ("PASS what" or
// "FAIL what: why", counted by tests/web/web-lib.sh), Debian's chromium
// started as it must be here (headless, its own profile in dir, no network
// of its own), through puppeteer-core, which downloads no browser; a page
// logged in, and messages sent on a WebSocket of a page's own.
import puppeteer from 'puppeteer-core';

export let failed = 0;

export function check(cond, what, why) {
	if (cond)
		console.log('PASS ' + what);
	else {
		failed++;
		console.log('FAIL ' + what + (why ? ': ' + why : ''));
	}
}

export function launch(dir) {
	return puppeteer.launch({
		executablePath: '/usr/bin/chromium',
		headless: true,
		userDataDir: dir + '/chromium',
		args: ['--headless', '--no-sandbox', '--disable-gpu',
		    '--disable-quic', '--no-first-run',
		    '--disable-background-networking',
		    '--disable-component-update', '--disable-sync'],
	});
}

// A page in a browser context of its own, width x height, opened with
// token's link and live (its WebSocket open).
export async function login(browser, url, token, width, height) {
	const ctx = await browser.createBrowserContext();
	const page = await ctx.newPage();

	await page.setViewport({ width: width, height: height });
	await page.goto(url + '#token=' + token);
	await page.waitForFunction(() => document.getElementById('status')
	    .textContent === 'live', { timeout: 15000 });
	return page;
}

// msgs sent as a page's messages on a WebSocket of its own, opened from
// page with token: the first result back, {closed: true} when the front
// end closed it, {none: true} after 5 s without either.
export function ask(page, token, msgs) {
	return page.evaluate((t, m) => new Promise((resolve) => {
		const ws = new WebSocket('ws://' + location.host + '/ws',
		    ['ptyvisor', 'token.' + t]);
		ws.onmessage = (e) => {
			const r = JSON.parse(e.data);
			if (r.type === 'result')
				resolve(r);
		};
		ws.onopen = () => m.forEach((x) => ws.send(JSON.stringify(x)));
		ws.onclose = () => resolve({ closed: true });
		setTimeout(() => resolve({ none: true }), 5000);
	}), token, msgs);
}
