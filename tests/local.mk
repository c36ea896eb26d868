# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

# End-to-end tests of the real binary.
TESTS += tests/e2e/run.sh tests/e2e/run-tty.sh
EXTRA_DIST += tests/e2e/run.sh tests/e2e/run-tty.sh tests/e2e/castdata.py \
	tests/e2e/tmux.sh
