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
# The recording player, driven by the event loop.
check_PROGRAMS += tests/unit/test-player
tests_unit_test_player_SOURCES = tests/unit/test-player.c
tests_unit_test_player_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_player_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-player
# replay, history and show end to end.
TESTS += tests/e2e/replay.sh
EXTRA_DIST += tests/e2e/replay.sh
