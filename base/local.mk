# base/: what every other folder stands on (allocation, buffers, clocks,
# errors, UTF-8, the event loop).  Uses nothing of ours.
noinst_LIBRARIES += libbase.a
libbase_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libbase_a_SOURCES = \
	base/loop.c base/loop.h \
	base/quote.c base/quote.h \
	base/sha256.c base/sha256.h \
	base/watch.c base/watch.h \
	base/utf8.c base/utf8.h \
	base/util.c base/util.h
