# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

# Sandbox: a probe that tries each forbidden thing, and the TAP scripts that
# run it unsandboxed and under `ptyvisor sandbox`.
check_PROGRAMS += tests/sandbox/probe
tests_sandbox_probe_SOURCES = tests/sandbox/probe.c
TESTS += tests/sandbox/escape.sh tests/sandbox/escape-nobody.sh \
	tests/sandbox/terminal.sh
EXTRA_DIST += tests/sandbox/escape.sh tests/sandbox/escape-nobody.sh \
	tests/sandbox/terminal.sh tests/sandbox/listeners.py \
	tests/sandbox/ttyharness.py

# Unit tests of the sandbox policy: parsing, defaults, environment, explain.
check_PROGRAMS += tests/unit/test-sandbox
tests_unit_test_sandbox_SOURCES = tests/unit/test-sandbox.c
tests_unit_test_sandbox_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_sandbox_LDADD = libsandbox.a libsession.a libpty.a $(PV_EXT_LIBS)
TESTS += tests/unit/test-sandbox
