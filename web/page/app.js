/*
 * app.js - the approval page: the waiting requests and the sessions, as
 * `ptyvisor web` sends them, and a person's decisions back; a session's
 * screen live, in a terminal of its own size (xterm.js), with its entries
 * of the history.
 *
 * The token lives in this page's own storage (localStorage: this origin,
 * host and port only) and travels in headers, never in a cookie: the
 * Authorization header of the API, the Sec-WebSocket-Protocol of the
 * WebSocket.  A link "#token=..." hands it over once and is then taken
 * out of the address.  Every text the server sends is already escaped by
 * ptyvisor's quoter; it is only ever inserted as text (textContent), never
 * as markup; a session's own bytes go only to its terminal (xterm.js),
 * which never answers the program's queries (the server's own terminal
 * does).  Nothing is decided here: a decision is sent, and the request
 * leaves the page when the server's list no longer holds it.
 */
'use strict';

(function () {
	const KEY = 'ptyvisor-token';
	/* A card's buttons wait this long: a tap meant for another is lost. */
	const GUARD_MS = 600;
	let token = null;
	let role = null;
	let ws = null;
	let tags = 0;
	let retries = 0;
	let xterm = null;
	const cards = new Map();
	/* The sessions list's rows, by number, kept like the cards. */
	const rows = new Map();
	/* The sessions shown live, by number: what the server caps a page at. */
	const VIEWS_MAX = 4;
	const views = new Map();

	function $(id) {
		return document.getElementById(id);
	}

	/* An element with a class and a text (never markup). */
	function el(tag, cls, text) {
		const e = document.createElement(tag);

		if (cls)
			e.className = cls;
		if (text !== undefined && text !== null)
			e.textContent = text;
		return e;
	}

	/* The token from the link (then out of the address) or storage. */
	function takeToken() {
		const m = /^#token=([0-9a-f]{64})$/.exec(location.hash);

		if (m) {
			localStorage.setItem(KEY, m[1]);
			history.replaceState(null, '', location.pathname);
		}
		return localStorage.getItem(KEY);
	}

	function setStatus(text) {
		$('status').textContent = text;
	}

	function showLogin(message) {
		$('app').hidden = true;
		$('login').hidden = false;
		$('login-error').textContent = message || '';
		setStatus('not logged in');
	}

	/* Who the token is: {role, token}, or an Error saying why not. */
	async function whoami(t) {
		const r = await fetch('/api/whoami', {
			headers: { Authorization: 'Bearer ' + t },
			cache: 'no-store'
		});

		if (r.status === 401)
			throw new Error('this token is not valid (ptyvisor web ' +
			    'makes new ones each time it starts)');
		if (r.status === 429)
			throw new Error('too many failed logins: wait a minute');
		if (!r.ok)
			throw new Error('the page answered ' + r.status);
		return r.json();
	}

	/* One row of a card's details. */
	function row(dl, label, text, danger) {
		if (text === undefined || text === null)
			return;
		dl.append(el('dt', null, label));
		dl.append(el('dd', danger ? 'danger' : null, text));
	}

	/* A decision sent; the answer comes back as a result with its tag. */
	function send(card, fields) {
		const tag = 't' + (++tags);
		const msg = Object.assign({ op: 'decide',
		    request: card.req.request, tag: tag }, fields);

		card.tag = tag;
		card.msg.textContent = 'sent…';
		card.msg.className = 'msg';
		ws.send(JSON.stringify(msg));
	}

	/* Show a card's form: a field prefilled, and its confirm button. */
	function openForm(card, label, value, readonly, confirm, fields) {
		const f = card.form;
		const input = el('input', 'field');
		const ok = el('button', fields.decision === 'deny' ? 'deny' :
		    'approve', confirm);
		const cancel = el('button', null, 'Cancel');

		f.replaceChildren();
		input.value = value;
		input.readOnly = readonly;
		input.setAttribute('aria-label', label);
		ok.dataset.act = 'confirm';
		ok.type = 'button';
		cancel.type = 'button';
		ok.onclick = function () {
			send(card, fields(input.value));
		};
		cancel.onclick = function () {
			f.hidden = true;
		};
		f.append(el('label', null, label), input, ok, cancel);
		f.hidden = false;
		input.focus();
	}

	/* A card's buttons, by the kind of request. */
	function actions(card) {
		const r = card.req;
		const box = el('div', 'actions');
		const list = [];

		function add(act, cls, text, fn) {
			const b = el('button', cls, text);

			b.type = 'button';
			b.dataset.act = act;
			b.disabled = true;
			b.onclick = fn;
			box.append(b);
			list.push(b);
		}
		if (r.connect)
			add('once', 'approve', 'This connection', function () {
				send(card, { decision: 'approve', once: true });
			});
		add('approve', 'approve', r.connect ? 'This sandbox' :
		    'Approve', function () {
			send(card, { decision: 'approve' });
		});
		add('remember', null, 'Approve and remember', function () {
			const f = function (v) {
				return { decision: 'approve', remember: true,
				    rule: v };
			};
			f.decision = 'approve';
			openForm(card, 'rule', r.rule, r.connect,
			    'Approve and remember this rule', f);
		});
		add('deny', 'deny', 'Deny', function () {
			const f = function (v) {
				return { decision: 'deny', reason: v };
			};
			f.decision = 'deny';
			openForm(card, 'reason (the agent gets it)', '', false,
			    'Deny', f);
		});
		if (r.editable)
			add('edit', null, 'Edit first', function () {
				const f = function (v) {
					return { decision: 'approve', edit: v };
				};
				f.decision = 'approve';
				openForm(card, 'command', r.command, false,
				    'Approve as edited', f);
			});
		setTimeout(function () {
			list.forEach(function (b) {
				b.disabled = false;
			});
		}, GUARD_MS);
		return box;
	}

	/* A waiting request's card: everything the console's prompt shows. */
	function makeCard(r) {
		const card = { req: r, node: el('article', 'req') };
		const dl = el('dl');
		let kind = 'command';

		card.node.dataset.request = String(r.request);
		if (r.invisible)
			card.node.append(el('div', 'warn', 'WARNING: holds ' +
			    'invisible characters (bidirectional or ' +
			    'zero-width), shown as \\uXXXX'));
		if (r.exec_check)
			kind = 'a program inside session ' +
			    r.exec_check.session + ', waiting in exec';
		else if (r.connect)
			kind = 'a host a sandbox connects to';
		card.node.append(el('h3', null, '#' + r.request + ' — ' + kind));
		card.node.append(el('pre', 'cmd', r.command));
		if (r.exec_check) {
			row(dl, 'exec in', r.exec_check.chain);
			row(dl, 'file', r.exec_check.file);
		}
		row(dl, 'cwd', r.cwd);
		row(dl, 'sandbox', r.sandbox + (r.no_sandbox ?
		    '  (NO SANDBOX)' : ''), r.no_sandbox);
		row(dl, 'network', r.network, r.network_asked);
		row(dl, 'env', r.env, true);
		row(dl, 'environ', r.environ, true);
		row(dl, 'dropped', r.dropped);
		row(dl, 'why', r.why);
		row(dl, 'agent', r.agent);
		row(dl, 'asked by', r.asked_by);
		card.node.append(dl);
		if (role === 'approver')
			card.node.append(actions(card));
		card.form = el('div', 'form');
		card.form.hidden = true;
		card.msg = el('p', 'msg');
		card.node.append(card.form, card.msg);
		return card;
	}

	/*
	 * Put node at index i of parent unless it is there already.  Why not
	 * always append: a node taken out of the page, even to be put back at
	 * once, loses the focus (a reason being typed goes nowhere after it)
	 * and a pointer's tap that lands then is lost.
	 */
	function place(parent, node, i) {
		if (parent.children[i] !== node)
			parent.insertBefore(node, parent.children[i] || null);
	}

	/* Drop what parent holds from index i on. */
	function cut(parent, i) {
		while (parent.children.length > i)
			parent.lastElementChild.remove();
	}

	/* A session's row of the list: made once, its text kept current. */
	function sessionRow(s) {
		let row = rows.get(s.session);

		if (!row) {
			row = { li: el('li'), state: el('span', 'state'),
			    cmd: el('code'), cwd: el('div', 'note'),
			    show: el('button', 'show', 'Show live') };
			row.li.dataset.session = String(s.session);
			row.show.type = 'button';
			row.show.dataset.view = String(s.session);
			row.show.onclick = function () {
				openView(row.s);
			};
			rows.set(s.session, row);
		}
		row.s = s;
		row.state.textContent = '#' + s.session + ' ' + s.state;
		row.cmd.textContent = s.command;
		row.cwd.textContent = s.cwd || '';
		const parts = s.cwd ? [row.state, row.cmd, row.cwd, row.show] :
		    [row.state, row.cmd, row.show];
		parts.forEach(function (n, i) {
			place(row.li, n, i);
		});
		cut(row.li, parts.length);
		return row.li;
	}

	/*
	 * The server's state: cards kept by request, rows by session, each
	 * moved only where the order changed (place()).
	 */
	function render(state) {
		const seen = new Set();
		const list = $('pending');
		const ul = $('sessions');
		let i = 0;

		state.pending.forEach(function (r) {
			seen.add(r.request);
			if (!cards.has(r.request))
				cards.set(r.request, makeCard(r));
			place(list, cards.get(r.request).node, i++);
		});
		cards.forEach(function (card, id) {
			if (!seen.has(id)) {
				card.node.remove();
				cards.delete(id);
			}
		});
		$('count').textContent = String(state.pending.length);
		$('none').hidden = state.pending.length > 0;
		seen.clear();
		state.sessions.forEach(function (s, k) {
			seen.add(s.session);
			place(ul, sessionRow(s), k);
		});
		rows.forEach(function (row, n) {
			if (!seen.has(n)) {
				row.li.remove();
				rows.delete(n);
			}
		});
		if (state.sessions.length === 0) {
			if (!ul.querySelector('li.note'))
				ul.replaceChildren(el('li', 'note', 'No sessions.'));
		} else
			cut(ul, state.sessions.length);
		renderHistory(state.history || []);
	}

	/* The recent history: how each ended, and who decided. */
	function renderHistory(list) {
		const ul = $('history');

		ul.replaceChildren();
		list.forEach(function (h) {
			const li = el('li');

			li.append(el('span', 'state', (h.session ? '#' +
			    h.session + ' ' : '') + h.state),
			    el('code', null, h.command));
			if (h.by)
				li.append(el('div', 'note', 'by ' + h.by));
			if (h.error)
				li.append(el('div', 'note', h.error));
			ul.append(li);
		});
		if (list.length === 0)
			ul.append(el('li', 'note', 'Nothing yet.'));
	}

	/* The answer to a decision. */
	function result(m) {
		cards.forEach(function (card) {
			if (card.tag !== m.tag)
				return;
			card.msg.textContent = m.ok ? (m.message ?
			    'done; ' + m.message : 'done') : m.message;
			card.msg.className = m.ok ? 'msg' : 'msg error';
		});
		if (!m.ok && !m.tag)
			setStatus(m.message);
	}

	function onMessage(e) {
		const m = JSON.parse(e.data);

		if (m.type === 'hello') {
			role = m.role;
			$('role').textContent = 'token ' + m.token + (role ===
			    'approver' ? '' : ' (watch only)');
			$('watch-note').hidden = role === 'approver';
		} else if (m.type === 'state')
			render(m);
		else if (m.type === 'result')
			result(m);
		else if (views.has(m.session))
			viewMessage(views.get(m.session), m);
	}

	/* The live connection; after a drop, the token checked again. */
	function connect() {
		const scheme = location.protocol === 'https:' ? 'wss://' :
		    'ws://';

		ws = new WebSocket(scheme + location.host + '/ws',
		    ['ptyvisor', 'token.' + token]);
		ws.onopen = function () {
			retries = 0;
			setStatus('live');
			/* A new connection: the views asked for again. */
			views.forEach(function (v) {
				ws.send(JSON.stringify({ op: 'view',
				    session: v.session }));
			});
		};
		ws.onmessage = onMessage;
		ws.onclose = function () {
			setStatus('disconnected; trying again');
			setTimeout(start, Math.min(10000, 500 * 2 ** retries++));
		};
	}

	async function start() {
		token = takeToken();
		if (!token) {
			showLogin();
			return;
		}
		try {
			await whoami(token);
		} catch (err) {
			if (err instanceof TypeError) {
				setStatus('no answer; trying again');
				setTimeout(start, Math.min(10000,
				    500 * 2 ** retries++));
			} else
				showLogin(err.message);
			return;
		}
		$('login').hidden = true;
		$('app').hidden = false;
		connect();
	}

	/* Load xterm.js from the front end, once: rejected when missing. */
	function loadXterm() {
		if (xterm)
			return xterm;
		xterm = new Promise(function (resolve, reject) {
			const css = el('link');
			const js = el('script');

			css.rel = 'stylesheet';
			css.href = '/xterm/xterm.css';
			document.head.append(css);
			js.src = '/xterm/xterm.js';
			js.onload = resolve;
			js.onerror = reject;
			document.head.append(js);
		});
		return xterm;
	}

	/*
	 * A view's terminal answers nothing the program asks (device
	 * attributes, cursor position, modes, colours, settings): the
	 * session's own terminal, the server's, has answered already, and an
	 * answer from here would reach the program as typed.  Nor does it
	 * make links of what the program prints (OSC 8).
	 */
	function quiet(term) {
		const p = term.parser;
		const yes = function () {
			return true;
		};
		const query = function (data) {
			return data.includes('?');
		};

		[{ final: 'c' }, { prefix: '>', final: 'c' },
		    { prefix: '=', final: 'c' }, { final: 'n' },
		    { prefix: '?', final: 'n' }, { final: 't' },
		    { intermediates: '$', final: 'p' },
		    { prefix: '?', intermediates: '$', final: 'p' },
		    { prefix: '?', final: 'u' }, { prefix: '>', final: 'q' }]
		    .forEach(function (id) {
			p.registerCsiHandler(id, yes);
		});
		[{ intermediates: '$', final: 'q' },
		    { intermediates: '+', final: 'q' }].forEach(function (id) {
			p.registerDcsHandler(id, yes);
		});
		[4, 10, 11, 12, 17, 19].forEach(function (n) {
			p.registerOscHandler(n, query);
		});
		/* No links either: a program's text may name any address. */
		p.registerOscHandler(8, yes);
	}

	/* Keys typed into a view, in pieces a page's message holds. */
	function typeInto(v, data) {
		let i;

		if (ws.readyState !== WebSocket.OPEN)
			return;
		for (i = 0; i < data.length; i += 2048)
			ws.send(JSON.stringify({ op: 'input',
			    session: v.session, data: data.slice(i, i + 2048) }));
	}

	/* A view's screen: its terminal made, or reset, at the session's size. */
	function viewScreen(v, m) {
		if (m.error !== undefined) {
			v.note.textContent = m.error;
			return;
		}
		if (!v.term) {
			v.term = new window.Terminal({ fontFamily: 'monospace',
			    fontSize: 13, cols: m.cols, rows: m.rows,
			    scrollback: 0, disableStdin: role !== 'approver' });
			quiet(v.term);
			v.term.open(v.box);
			if (role === 'approver')
				v.term.onData(function (d) {
					typeInto(v, d);
				});
		} else {
			v.term.reset();
			v.term.resize(m.cols, m.rows);
		}
		v.term.write(m.data);
		v.note.textContent = (v.over ? v.over : 'live') + ', ' + m.cols +
		    'x' + m.rows + (m.partial ? ' (rows past the bound not ' +
		    'drawn)' : '') + (role === 'approver' ? '' : '; watch only');
	}

	/* A view's entries of the history: what `ptyvisor show` says. */
	function viewEntries(v, list) {
		v.entries.replaceChildren();
		list.forEach(function (e) {
			const li = el('li');
			const dl = el('dl');

			row(dl, 'command', e.command);
			row(dl, 'cwd', e.cwd);
			row(dl, 'start', e.start);
			row(dl, 'end', e.end);
			row(dl, 'duration', e.duration);
			row(dl, 'ending', e.ending);
			row(dl, 'decision', e.decision);
			row(dl, 'by', e.by);
			row(dl, 'profile', e.profile);
			row(dl, 'bytes', String(e.bytes));
			row(dl, 'recording', e.recording, true);
			row(dl, 'error', e.error, true);
			li.append(dl);
			v.entries.append(li);
		});
		if (list.length === 0)
			v.entries.append(el('li', 'note', 'Running: its entry ' +
			    'comes when it ends.'));
	}

	/* A message about a view, once its terminal can be had. */
	function viewMessage(v, m) {
		if (m.type === 'entries') {
			viewEntries(v, m.entries);
			return;
		}
		if (m.type === 'ended') {
			v.over = 'ended: ' + m.ending;
			v.node.classList.add('over');
			v.note.textContent = v.over;
			return;
		}
		if (v.broken)
			return;
		if (!v.ready) {
			v.queue.push(m);
			return;
		}
		if (m.type === 'screen')
			viewScreen(v, m);
		else if (m.type === 'output' && v.term)
			v.term.write(m.data);
	}

	/* Show session s live: its screen, then what it prints; its history. */
	function openView(s) {
		const v = { session: s.session, queue: [], ready: false };
		const close = el('button', null, 'Close');

		if (views.has(s.session) || views.size >= VIEWS_MAX ||
		    ws.readyState !== WebSocket.OPEN) {
			setStatus(views.has(s.session) ? 'shown already' :
			    'a page shows at most ' + VIEWS_MAX + ' sessions');
			return;
		}
		v.node = el('section', 'view');
		v.node.dataset.session = String(s.session);
		v.note = el('p', 'note', 'asking for its screen…');
		v.box = el('div', 'screen');
		v.entries = el('ul', 'entries');
		close.type = 'button';
		close.dataset.act = 'close';
		close.onclick = function () {
			if (ws.readyState === WebSocket.OPEN)
				ws.send(JSON.stringify({ op: 'unview',
				    session: s.session }));
			if (v.term)
				v.term.dispose();
			v.node.remove();
			views.delete(s.session);
		};
		v.node.append(el('h3', null, '#' + s.session + ' ' + s.command),
		    v.note, v.box, el('h4', null, 'In the history'), v.entries,
		    close);
		$('views').append(v.node);
		views.set(s.session, v);
		ws.send(JSON.stringify({ op: 'view', session: s.session }));
		loadXterm().then(function () {
			v.ready = true;
			v.queue.splice(0).forEach(function (m) {
				viewMessage(v, m);
			});
		}, function () {
			v.broken = true;
			v.queue = [];
			v.note.textContent = 'The screen needs xterm.js, which ' +
			    'is not installed beside ptyvisor (doc/web.md).';
		});
	}

	/* Columns and rows of the font that fit in box. */
	function fit(box, font) {
		const probe = el('span', null, 'W'.repeat(50));
		let w, h;

		probe.style.font = font;
		probe.style.position = 'absolute';
		probe.style.visibility = 'hidden';
		document.body.append(probe);
		w = probe.getBoundingClientRect().width / 50;
		h = probe.getBoundingClientRect().height;
		probe.remove();
		return {
			cols: Math.max(20, Math.floor((box.clientWidth - 4) / w)),
			rows: Math.max(5, Math.floor((box.clientHeight - 4) / h))
		};
	}

	/*
	 * The console: one more console of the server, drawn by it for
	 * xterm-256color; xterm.js shows its frames and sends keys and size.
	 */
	async function openConsole() {
		const box = $('term');
		const scheme = location.protocol === 'https:' ? 'wss://' :
		    'ws://';
		let term, size, cws;

		$('console-open').hidden = true;
		try {
			await loadXterm();
		} catch (err) {
			$('console-note').textContent = 'The console needs ' +
			    'xterm.js, which is not installed beside ptyvisor ' +
			    '(doc/web.md); the rest of this page works ' +
			    'without it.';
			return;
		}
		box.hidden = false;
		size = fit(box, '14px monospace');
		term = new window.Terminal({ fontFamily: 'monospace',
		    fontSize: 14, cols: size.cols, rows: size.rows });
		term.open(box);
		cws = new WebSocket(scheme + location.host + '/console',
		    ['ptyvisor-console', 'token.' + token]);
		cws.binaryType = 'arraybuffer';
		cws.onopen = function () {
			cws.send(JSON.stringify({ cols: term.cols,
			    rows: term.rows }));
			term.focus();
		};
		cws.onmessage = function (e) {
			if (typeof e.data === 'string')
				$('console-note').textContent = e.data;
			else
				term.write(new Uint8Array(e.data));
		};
		cws.onclose = function () {
			$('console-note').textContent += ' (the console is ' +
			    'closed)';
			$('console-open').hidden = false;
			$('console-open').onclick = function () {
				term.dispose();
				box.replaceChildren();
				$('console-note').textContent = '';
				openConsole();
			};
		};
		term.onData(function (d) {
			if (cws.readyState === WebSocket.OPEN)
				cws.send(new TextEncoder().encode(d));
		});
		term.onResize(function (s) {
			if (cws.readyState === WebSocket.OPEN)
				cws.send(JSON.stringify({ cols: s.cols,
				    rows: s.rows }));
		});
		window.addEventListener('resize', function () {
			const s = fit(box, '14px monospace');

			term.resize(s.cols, s.rows);
		});
	}

	$('console-open').onclick = openConsole;
	$('login-form').addEventListener('submit', function (e) {
		const t = $('login-token').value.trim();

		e.preventDefault();
		if (/^[0-9a-f]{64}$/.test(t)) {
			localStorage.setItem(KEY, t);
			start();
		} else
			$('login-error').textContent = 'a token is 64 hex digits';
	});
	start();
}());
