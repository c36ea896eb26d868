# conf/: the settings file (INI, read with libinih): what the person set,
# checked, for the commands to apply.  Decides nothing itself.  Uses base/,
# net/ (host lists checked), sandbox/ (profiles, bounds) and policy/
# (approval modes).
noinst_LIBRARIES += libconf.a
libconf_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libconf_a_SOURCES = conf/config.c conf/config.h conf/config-int.h \
	conf/config-apply.c
