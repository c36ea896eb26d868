# Unit tests: one TAP program per module, no curses.
TESTS_UNIT_LDADD = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh
