# The core: everything but curses.  Each module adds its files below.
noinst_LIBRARIES += libsession.a
libsession_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsession_a_SOURCES = session/util.c session/util.h
