# The core: everything but curses.  Each module adds its files below.
noinst_LIBRARIES += libsession.a
libsession_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsession_a_SOURCES = session/util.c session/util.h
# Recordings: asciicast reader and playback timing.
libsession_a_SOURCES += session/cast.c session/cast.h \
	session/replay.c session/replay.h
