#!/usr/bin/env python3
"""short-commands.py ROUNDS NAME|COMMAND... - time each command ROUNDS
times, taking turns (one run of each per round, the order turned by one
each round), from its start to its exit; print the median and quartiles
of each, its ratio to bwrap's median, and the two bounds of short-commands.sh.
A command that fails stops the run.

Each run starts SETTLE_S after the one before ended, not counted: a
server's work after it told an exit (fsyncs, the sandbox's cgroups and
placeholders removed) would otherwise run into the start of the next
command, which in turns that only rotate is always the same one (after
`ptyvisor-sh`, bwrap), as an agent's next command, some time later, does
not meet it."""
import shlex, statistics, subprocess, sys, time

SETTLE_S = 0.03

rounds = int(sys.argv[1])
cmds = [(a.split('|', 1)[0], shlex.split(a.split('|', 1)[1]))
        for a in sys.argv[2:]]
times = {name: [] for name, _ in cmds}
for r in range(rounds + 3):
    k = r % len(cmds)
    for name, argv in cmds[k:] + cmds[:k]:
        time.sleep(SETTLE_S)
        t0 = time.perf_counter_ns()
        p = subprocess.run(argv, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL)
        t1 = time.perf_counter_ns()
        if p.returncode != 0:
            sys.exit("%s: exit %d" % (name, p.returncode))
        if r >= 3:                      # three rounds of warm-up
            times[name].append((t1 - t0) / 1e6)

med = {n: statistics.median(v) for n, v in times.items()}
print("%d rounds, each command once a round, in turn (ms)\n" % rounds)
print("| command | median | q1 | q3 | x bwrap |")
print("|---|---|---|---|---|")
for name, _ in cmds:
    q = statistics.quantiles(times[name], n=4)
    x = "%.2f" % (med[name] / med["bwrap"]) if "bwrap" in med else "-"
    print("| %s | %.2f | %.2f | %.2f | %s |" % (name, med[name], q[0], q[2], x))
print()
if "bwrap" in med:
    print("sandbox <= bwrap:        %.2f ms against %.2f: %s" % (
        med["ptyvisor sandbox"], med["bwrap"],
        "yes" if med["ptyvisor sandbox"] <= med["bwrap"] else "no"))
d = med["ptyvisor exec"] - med["ptyvisor sandbox"]
print("exec <= sandbox + 1 ms:  +%.2f ms: %s" % (d, "yes" if d <= 1 else "no"))
