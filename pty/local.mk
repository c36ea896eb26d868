noinst_LIBRARIES += libpty.a
libpty_a_SOURCES = pty/pty.c pty/pty.h
