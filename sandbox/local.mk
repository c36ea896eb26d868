# sandbox/: the layers applied in the child before exec (pty/ runs it as
# a pre-exec hook).  Uses base/.
noinst_LIBRARIES += libsandbox.a
libsandbox_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libsandbox_a_SOURCES = sandbox/sandbox.h sandbox/sandbox-int.h \
	sandbox/sandbox.c sandbox/child.c sandbox/ns.c sandbox/landlock.c \
	sandbox/seccomp.c sandbox/execcheck.c sandbox/exec-read.c \
	sandbox/exec-tree.c \
	sandbox/limits.c \
	sandbox/caps.c sandbox/stage.c \
	sandbox/net.c sandbox/guard.h sandbox/guard.c sandbox/guard-place.c sandbox/guard-mount.c \
	sandbox/guard-write.c sandbox/hostsvc.c
