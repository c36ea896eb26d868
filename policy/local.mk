# policy/: what decides before anything runs: the shell splitter, the rules
# and approval modes, git's files, the known read-only commands.  Uses
# base/, net/ (host rules) and sandbox/ (profile names).
noinst_LIBRARIES += libpolicy.a
libpolicy_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libpolicy_a_SOURCES = \
	policy/gitrepo.c policy/gitrepo.h \
	policy/policy.c policy/policy.h policy/policy-int.h policy/exec.c \
	policy/readonly.c policy/readonly.h \
	policy/rules.c policy/rules.h \
	policy/shsplit.c policy/shsplit.h
