# pty/: a PTY and the child on it.  A leaf: it takes a pre-exec hook and
# knows nothing of the sandbox.
noinst_LIBRARIES += libpty.a
libpty_a_SOURCES = pty/pty.c pty/pty.h
