# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

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
