# The core: everything but curses.  Each module adds its files below.
noinst_LIBRARIES += libsession.a
libsession_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsession_a_SOURCES = session/util.c session/util.h
libsession_a_SOURCES += \
	session/cell.h \
	session/history.c session/history.h \
	session/loop.c session/loop.h \
	session/record.c session/record.h \
	session/screen.c session/screen.h \
	session/scrollback.c session/scrollback.h \
	session/session.c session/session.h \
	session/statedir.c session/statedir.h \
	session/utf8.c session/utf8.h
# Recordings: asciicast reader and playback timing.
libsession_a_SOURCES += session/cast.c session/cast.h \
	session/replay.c session/replay.h

# Policy rules and approval modes, the shell splitter, the control protocol.
libsession_a_SOURCES += session/shsplit.c session/shsplit.h
libsession_a_SOURCES += session/policy.c session/policy.h
libsession_a_SOURCES += session/proto.c session/proto.h
# Timed playback of a recording into a screen (replay, TUI replay panes).
libsession_a_SOURCES += session/player.c session/player.h
# The approval queue, the control socket server and its client.
libsession_a_SOURCES += session/approval.c session/approval.h
libsession_a_SOURCES += session/control.c session/control.h \
	session/client.c session/client.h
# The settings file (INI, read with libinih).
libsession_a_SOURCES += session/config.c session/config.h
