# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

check_PROGRAMS += tests/unit/test-pty
tests_unit_test_pty_SOURCES = tests/unit/test-pty.c
tests_unit_test_pty_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_pty_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-pty

check_PROGRAMS += tests/unit/test-utf8
tests_unit_test_utf8_SOURCES = tests/unit/test-utf8.c
tests_unit_test_utf8_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_utf8_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-utf8

check_PROGRAMS += tests/unit/test-record
tests_unit_test_record_SOURCES = tests/unit/test-record.c
tests_unit_test_record_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_record_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-record

check_PROGRAMS += tests/unit/test-history
tests_unit_test_history_SOURCES = tests/unit/test-history.c
tests_unit_test_history_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_history_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-history

check_PROGRAMS += tests/unit/test-scrollback
tests_unit_test_scrollback_SOURCES = tests/unit/test-scrollback.c
tests_unit_test_scrollback_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_scrollback_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-scrollback

check_PROGRAMS += tests/unit/test-loop
tests_unit_test_loop_SOURCES = tests/unit/test-loop.c
tests_unit_test_loop_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_loop_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-loop

check_PROGRAMS += tests/unit/test-session
tests_unit_test_session_SOURCES = tests/unit/test-session.c
tests_unit_test_session_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_session_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-session

check_PROGRAMS += tests/unit/test-screen
tests_unit_test_screen_SOURCES = tests/unit/test-screen.c
tests_unit_test_screen_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_screen_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-screen
