# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

# End-to-end tests of the real binary.
TESTS += tests/e2e/run.sh tests/e2e/run-tty.sh
EXTRA_DIST += tests/e2e/run.sh tests/e2e/run-tty.sh tests/e2e/castdata.py \
	tests/e2e/tmux.sh
# Recordings: the asciicast reader and playback timing.
check_PROGRAMS += tests/unit/test-cast tests/unit/test-replay
tests_unit_test_cast_SOURCES = tests/unit/test-cast.c
tests_unit_test_cast_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_cast_LDADD = $(PV_TEST_LIBS)
tests_unit_test_replay_SOURCES = tests/unit/test-replay.c
tests_unit_test_replay_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_replay_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-cast tests/unit/test-replay
EXTRA_DIST += tests/data/asciinema-rec.cast
# The libFuzzer target is built by fuzz/build.sh, not by make; ship it.
EXTRA_DIST += fuzz/README.md fuzz/build.sh fuzz/fuzz-cast.c fuzz/cast.dict \
	fuzz/corpus/asciinema-rec.cast fuzz/corpus/v1.cast fuzz/corpus/v3.cast \
	fuzz/corpus/v2-truncated.cast
# Policy rules and shell splitter; control protocol.
check_PROGRAMS += tests/unit/test-policy
tests_unit_test_policy_SOURCES = tests/unit/test-policy.c
tests_unit_test_policy_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_policy_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-policy
check_PROGRAMS += tests/unit/test-proto
tests_unit_test_proto_SOURCES = tests/unit/test-proto.c
tests_unit_test_proto_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_proto_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-proto
# The approval queue.
check_PROGRAMS += tests/unit/test-approval
tests_unit_test_approval_SOURCES = tests/unit/test-approval.c
tests_unit_test_approval_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_approval_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-approval
# The control protocol against a real `ptyvisor serve`.
check_PROGRAMS += tests/control/client-test
tests_control_client_test_SOURCES = tests/control/client-test.c
tests_control_client_test_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_control_client_test_LDADD = $(PV_TEST_LIBS)
TESTS += tests/control/client-test
TESTS += tests/e2e/control.sh
EXTRA_DIST += tests/e2e/control.sh
