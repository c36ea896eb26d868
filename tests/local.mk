# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

# Sandbox: a probe that tries each forbidden thing, and the TAP scripts that
# run it unsandboxed and under `ptyvisor sandbox`.
check_PROGRAMS += tests/sandbox/probe
tests_sandbox_probe_SOURCES = tests/sandbox/probe.c
TESTS += tests/sandbox/escape.sh tests/sandbox/escape-nobody.sh
EXTRA_DIST += tests/sandbox/escape.sh tests/sandbox/escape-nobody.sh \
	tests/sandbox/listeners.py
CLEANFILES += -r tests/sandbox/escape.* tests/sandbox/nobody.*
