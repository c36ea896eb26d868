noinst_LIBRARIES += libcli.a
libcli_a_SOURCES = cli/cli.h cli/run.c cli/replay.c cli/history.c \
	cli/tui.c cli/attach.c cli/consoles.c
libcli_a_SOURCES += cli/serve.c cli/exec.c cli/pending.c \
	cli/cmd-mcp.c cli/hook.c cli/check.c
libcli_a_SOURCES += cli/term.c cli/term.h cli/sbopts.c cli/sbopts.h cli/sandbox.c \
	cli/netrules.c cli/netrules.h
libcli_a_SOURCES += cli/config.c cli/commands.h cli/errors.c cli/agents.c \
	cli/recording.c
libcli_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)

bin_PROGRAMS += ptyvisor
ptyvisor_SOURCES = cli/main.c
ptyvisor_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
ptyvisor_LDADD = $(PV_LIBS) $(PV_EXT_LIBS)

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
