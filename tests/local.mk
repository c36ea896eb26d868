# Unit tests: one TAP program per module, no curses.
PV_TEST_LIBS = libsession.a libpty.a $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh

# Rendering: scripts in tests/render run over the screen and tui/render.
check_PROGRAMS += tests/unit/test-render tests/unit/test-tui
tests_unit_test_render_SOURCES = tests/unit/test-render.c
tests_unit_test_render_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_render_LDADD = libtui.a $(PV_TEST_LIBS)
tests_unit_test_tui_SOURCES = tests/unit/test-tui.c
tests_unit_test_tui_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_tui_LDADD = libtui.a $(PV_TEST_LIBS)
TESTS += tests/unit/test-render tests/unit/test-tui
EXTRA_DIST += tests/render/sgr.test tests/render/colour.test \
	tests/render/wide.test tests/render/altscreen.test \
	tests/render/scroll.test tests/render/resize.test

# End to end: the console in a private tmux server.
TESTS += tests/e2e/tui-panes.sh tests/e2e/tui-robust.sh
EXTRA_DIST += tests/e2e/tui-lib.sh tests/e2e/tui-panes.sh \
	tests/e2e/tui-robust.sh
