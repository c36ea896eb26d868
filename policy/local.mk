# policy/: what decides before anything runs: the shell splitter, the rules
# and approval modes, the settings file.  Uses base/ and sandbox/ (profile
# names).
noinst_LIBRARIES += libpolicy.a
libpolicy_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libpolicy_a_SOURCES = \
	policy/config.c policy/config.h \
	policy/gitrepo.c policy/gitrepo.h \
	policy/policy.c policy/policy.h policy/policy-int.h \
	policy/readonly.c policy/readonly.h \
	policy/rules.c policy/rules.h \
	policy/shsplit.c policy/shsplit.h
