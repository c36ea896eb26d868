# The sandbox: a leaf library (pty/ runs it as a pre-exec hook).
noinst_LIBRARIES += libsandbox.a
libsandbox_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsandbox_a_SOURCES = sandbox/sandbox.h sandbox/sandbox-int.h \
	sandbox/policy.c sandbox/child.c sandbox/ns.c sandbox/landlock.c \
	sandbox/seccomp.c sandbox/limits.c sandbox/caps.c
