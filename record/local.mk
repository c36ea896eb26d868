# record/: what outlives a session: the state directory, recordings
# (asciicast writer, reader, playback timing, player) and the history file.
# Uses base/ and term/.
noinst_LIBRARIES += librecord.a
librecord_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
librecord_a_SOURCES = \
	record/cast.c record/cast.h record/cast-int.h \
	record/cast-header.c record/cast-input.c \
	record/ending.c record/ending.h \
	record/history.c record/history.h \
	record/lost.c record/lost.h \
	record/player.c record/player.h \
	record/prune.c record/prune.h \
	record/record.c record/record.h \
	record/replay.c record/replay.h \
	record/statedir.c record/statedir.h
