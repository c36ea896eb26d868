# The core: everything but curses.  Each module adds its files below.
noinst_LIBRARIES += libsession.a
libsession_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsession_a_SOURCES = session/util.c session/util.h

# Policy rules and approval modes, the shell splitter, the control protocol.
libsession_a_SOURCES += session/shsplit.c session/shsplit.h
libsession_a_SOURCES += session/policy.c session/policy.h
libsession_a_SOURCES += session/proto.c session/proto.h
