#!/usr/bin/env python3
# load-client.py - raw control protocol clients for load.sh: what
# `ptyvisor exec` never sends (2 MiB lines, garbage, half lines, a client
# that never reads, a subscriber that falls behind a flood) and a thousand
# requests.  Usage: load-client.py MODE
# SOCKET [ARGS]; prints what it saw, one fact a line, for load.sh to check.
import base64
import json
import os
import random
import socket
import sys
import threading
import time

HELLO = b'{"op":"hello","version":1}\n'


def connect(path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.connect(path)
    return s


class Reader:
    """Lines from a socket, with a deadline for each."""

    def __init__(self, s):
        self.s = s
        self.buf = b''
        self.eof = False

    def line(self, timeout=20):
        end = time.monotonic() + timeout
        while b'\n' not in self.buf:
            left = end - time.monotonic()
            if left <= 0 or self.eof:
                return None
            self.s.settimeout(left)
            try:
                data = self.s.recv(65536)
            except socket.timeout:
                return None
            except OSError:
                data = b''
            if not data:
                self.eof = True
                return None
            self.buf += data
        line, self.buf = self.buf.split(b'\n', 1)
        return line

    def event(self, timeout=20):
        line = self.line(timeout)
        return None if line is None else json.loads(line)

    def until(self, pred, timeout=20):
        """Events until pred holds (returned) or the deadline (None)."""
        end = time.monotonic() + timeout
        while True:
            ev = self.event(max(0.01, end - time.monotonic()))
            if ev is None or pred(ev):
                return ev


def hello(path):
    s = connect(path)
    r = Reader(s)
    s.sendall(HELLO)
    ev = r.event()
    assert ev is not None and ev.get('event') == 'hello', ev
    return s, r


def too_long(path):
    """A 2 MiB request line: line-too-long, then the server closes."""
    s, r = hello(path)
    line = (b'{"op":"exec","id":"big","argv":["echo","' +
            b'A' * (2 * 1024 * 1024) + b'"]}\n')
    try:
        s.sendall(line)
    except OSError:
        pass    # closed part way: what it answered is still readable
    ev = r.until(lambda e: e.get('event') == 'error')
    print('error', ev.get('code') if ev else None)
    while r.line(10) is not None:
        pass
    print('closed' if r.eof else 'still open')


def garbage(path):
    """Random bytes before hello, then bad lines after it."""
    rnd = random.Random(1234)
    bad = 0
    s = connect(path)
    r = Reader(s)
    try:
        s.sendall(bytes(rnd.getrandbits(8) for _ in range(65536)))
    except OSError:
        pass
    while True:
        line = r.line(5)
        if line is None:
            break
        try:
            json.loads(line)
        except ValueError:
            bad += 1
    print('answered-json', 'no' if bad else 'yes')
    print('closed' if r.eof else 'still open')
    s.close()
    # After hello: every bad line gets an error, the connection stays.
    s, r = hello(path)
    lines = [b'\x00\xff\xfe', b'not json', b'[1,2,3]', b'{"op":7}',
             b'{"op":"exec"}', b'{"op":"nosuch","id":"x"}',
             b'{"op":"exec","id":"e","argv":[]}',
             b'{"op":"kill","id":"k","session":-1}',
             bytes(rnd.getrandbits(8) for _ in range(4000)).replace(
                 b'\n', b' ')]
    errors = 0
    for l in lines:
        s.sendall(l + b'\n')
        ev = r.event()
        if ev is not None and ev.get('event') == 'error':
            errors += 1
    print('errors', errors, 'of', len(lines))
    s.sendall(b'{"op":"list","id":"after"}\n')
    ev = r.until(lambda e: e.get('id') == 'after')
    print('list after garbage', ev.get('event') if ev else None)


def half_open(path, n, flag):
    """n clients that each send half a line and stay, until flag exists."""
    held = []
    for i in range(n):
        s = connect(path)
        s.sendall(HELLO if i % 2 else b'')
        s.sendall(b'{"op":"list","id":"hal')
        held.append(s)
    print('held', len(held), flush=True)
    while not os.path.exists(flag):
        time.sleep(0.05)


def no_read(path, flag):
    """Start a flood and never read it, until flag exists."""
    s = connect(path)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    s.sendall(HELLO)
    s.sendall(b'{"op":"exec","id":"flood","argv":["sh","-c",'
              b'"while :; do echo flood-never-read-flood-never-read; done"],'
              b'"cwd":"/"}\n')
    print('flooding', flush=True)
    while not os.path.exists(flag):
        time.sleep(0.05)


def requests(path, total, workers):
    """total requests over many connections: hello, list, a kill of no
    session, an exec of echo waited to its exit; each its answer."""
    lock = threading.Lock()
    counts = {'requests': 0, 'answered': 0, 'exits': 0, 'wrong': 0}

    def count(key, n=1):
        with lock:
            counts[key] += n

    def work(k):
        while True:
            with lock:
                if counts['requests'] >= total:
                    return
                counts['requests'] += 4
            s, r = hello(path)
            s.sendall(b'{"op":"list","id":"l"}\n')
            ev = r.until(lambda e: e.get('id') == 'l')
            count('answered' if ev and ev['event'] == 'list' else 'wrong')
            s.sendall(b'{"op":"kill","id":"k","session":987654321}\n')
            ev = r.until(lambda e: e.get('id') == 'k')
            count('answered' if ev and ev['event'] == 'error' else 'wrong')
            word = 'w%d' % k
            s.sendall(json.dumps({'op': 'exec', 'id': 'x',
                                  'argv': ['echo', word], 'cwd': '/'}
                                 ).encode() + b'\n')
            out = ''
            while True:
                ev = r.event(30)
                if ev is None or ev.get('id') != 'x':
                    break
                if ev['event'] == 'output':
                    out += ev.get('data', '')
                if ev['event'] in ('exit', 'error', 'denied'):
                    break
            if ev and ev['event'] == 'exit' and ev.get('code') == 0 and \
                    word in out:
                count('exits')
                count('answered')
            else:
                count('wrong')
            s.close()   # hello is the fourth request
            count('answered')

    threads = [threading.Thread(target=work, args=(k,))
               for k in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for key in ('requests', 'answered', 'exits', 'wrong'):
        print(key, counts[key])


def behind(path):
    """A subscriber that reads nothing for 3 s while a session prints 8 MB
    to its owner, which reads: what each saw."""
    ss, sub = hello(path)
    ss.sendall(b'{"op":"subscribe","id":"s"}\n')
    got = {'n': 0, 'code': None, 'session': None}

    def owner():
        s, r = hello(path)
        s.sendall(json.dumps({'op': 'exec', 'id': 'flood',
                              'encoding': 'base64',
                              'argv': ['printf', '%8000000s\\n', '']}
                             ).encode() + b'\n')
        while True:
            ev = r.event(60)
            if ev is None:
                return
            if ev.get('event') == 'output':
                got['n'] += len(base64.b64decode(ev['b64']))
            elif ev.get('event') == 'exit':
                got['code'], got['session'] = ev.get('code'), ev['session']
                return
    t = threading.Thread(target=owner, daemon=True)
    t.start()
    time.sleep(3)
    skipped, order = None, []
    while True:
        ev = sub.event(60)
        if ev is None:
            break
        if ev.get('event') == 'skipped':
            skipped = ev
            order.append('skipped')
        elif ev.get('event') == 'exit':
            order.append('exit')
            break
    t.join(60)
    print('owner', got['n'], got['code'])
    print('skipped', skipped is not None and
          skipped.get('session') == got['session'] and
          skipped.get('bytes', 0) > 0)
    print('order', ' '.join(order))
    print('closed', sub.eof)


def main():
    mode, path = sys.argv[1], sys.argv[2]
    if mode == 'too-long':
        too_long(path)
    elif mode == 'garbage':
        garbage(path)
    elif mode == 'half-open':
        half_open(path, int(sys.argv[3]), sys.argv[4])
    elif mode == 'no-read':
        no_read(path, sys.argv[3])
    elif mode == 'behind':
        behind(path)
    elif mode == 'requests':
        requests(path, int(sys.argv[3]), int(sys.argv[4]))
    else:
        sys.exit('unknown mode ' + mode)


main()
