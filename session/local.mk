# session/: one command's life in a PTY: spawn, I/O, exit, and the set of
# sessions.  Uses base/, pty/, sandbox/, term/ and record/.
noinst_LIBRARIES += libsession.a
libsession_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsession_a_SOURCES = session/session.h session/session-int.h \
	session/session.c session/spawn.c session/io.c session/exit.c \
	session/stdio.c session/execwatch.c session/execview.c
