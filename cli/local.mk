noinst_LIBRARIES += libcli.a
libcli_a_SOURCES = cli/cli.h cli/cmd-run.c cli/cmd-replay.c cli/cmd-history.c \
	cli/cmd-console.c cli/cmd-attach.c
libcli_a_SOURCES += cli/cmd-serve.c cli/server-opts.c cli/cmd-exec.c cli/exec-opts.c cli/exec-opts.h cli/cmd-pending.c \
	cli/cmd-mcp.c cli/cmd-hook.c \
	cli/cmd-check.c cli/cmd-gc.c cli/cmd-web-start.c
libcli_a_SOURCES += cli/term-raw.c cli/term-raw.h cli/sbopts.c cli/sbopts.h cli/cmd-sandbox.c \
	cli/netrules.c cli/netrules.h
libcli_a_SOURCES += cli/cli-paths.c cli/commands.h cli/args.c cli/args.h cli/errors.c \
	cli/paint-row.c cli/paint-row.h \
	cli/recording-arg.c cli/recopts.c cli/recopts.h
libcli_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
# Where `make install` puts ptyvisor-web, which `ptyvisor web` runs.
libcli_a_CPPFLAGS = $(AM_CPPFLAGS) -DPV_PKGLIBEXECDIR='"$(pkglibexecdir)"'

bin_PROGRAMS += ptyvisor
ptyvisor_SOURCES = cli/main.c
ptyvisor_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
ptyvisor_LDADD = $(PV_LIBS) $(PV_EXT_LIBS)

# ptyvisor-web: `ptyvisor web`, a program of its own (cli/cmd-web-start.c
# says why): the only one linked with libwebsockets and OpenSSL.
pkglibexec_PROGRAMS = ptyvisor-web
ptyvisor_web_SOURCES = cli/main-web.c cli/cmd-web.c
ptyvisor_web_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS) $(LWS_CFLAGS)
# Where `make install` puts xterm.js for `ptyvisor web` (web/local.mk).
ptyvisor_web_CPPFLAGS = $(AM_CPPFLAGS) -DPV_PKGDATADIR='"$(pkgdatadir)"'
ptyvisor_web_LDADD = libweb.a $(PV_LIBS) $(PV_EXT_LIBS) $(LWS_LIBS)

# ptyvisor-sh: the shim under a shell's name (argv[0] decides), beside the
# built binary (build/ptyvisor-sh) and installed.
all-local: ptyvisor-sh
ptyvisor-sh: ptyvisor$(EXEEXT)
	$(AM_V_GEN)rm -f $@ && $(LN_S) ptyvisor$(EXEEXT) $@
CLEANFILES += ptyvisor-sh
install-exec-hook:
	cd $(DESTDIR)$(bindir) && rm -f ptyvisor-sh && $(LN_S) ptyvisor ptyvisor-sh
uninstall-hook:
	rm -f $(DESTDIR)$(bindir)/ptyvisor-sh
