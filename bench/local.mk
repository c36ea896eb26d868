# Benchmarks: never part of `make check` (speed is shown by benchmarks,
# not by timed tests).  `make bench` runs the suite against tmux, screen
# and dvtm and writes bench/results/latest.md; BENCH_FLAGS=-q for a quick
# look, e.g. `make bench BENCH_FLAGS='-q -p "tmux ptyvisor"'`.
EXTRA_DIST += bench/README.md bench/short-commands.sh \
	bench/short-commands.py bench/flood.sh \
	bench/run.sh bench/net-proxy.sh bench/netcopy.py \
	bench/work.sh bench/outerterm.c bench/exec-checks.sh bench/exec-rtt.c \
	bench/many.sh bench/typing-lib.sh

.PHONY: bench
bench: ptyvisor$(EXEEXT)
	PTYVISOR=$(abs_builddir)/ptyvisor $(srcdir)/bench/run.sh $(BENCH_FLAGS)
