// lib.mjs - what the browser tests share: a line a check ("PASS what" or
// "FAIL what: why", counted by tests/web/web-lib.sh) and Debian's chromium
// started as it must be here (headless, its own profile in dir, no network
// of its own), through puppeteer-core, which downloads no browser.
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
