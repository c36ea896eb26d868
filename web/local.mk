# web/: `ptyvisor web`, the browser front end: HTTP and WebSocket
# (libwebsockets), the tokens and names it checks, the page's state and
# decisions, the page itself built in (web/page/ through web/embed.sh).
# Uses base/, net/ (its port claimed), policy/ (an edited command read
# back), conf/ and control/ (the client).
noinst_LIBRARIES += libweb.a
libweb_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libweb_a_SOURCES = web/web.c web/web.h web/web-auth.c web/web-auth.h \
	web/web-page.c web/web-page.h web/assets.h
nodist_libweb_a_SOURCES = web/assets.c
WEB_PAGE_FILES = web/page/index.html web/page/app.js web/page/app.css
web/assets.c: $(srcdir)/web/embed.sh $(WEB_PAGE_FILES:%=$(srcdir)/%)
	$(AM_V_GEN)mkdir -p web && $(SHELL) $(srcdir)/web/embed.sh \
	    /=$(srcdir)/web/page/index.html \
	    /app.js=$(srcdir)/web/page/app.js \
	    /app.css=$(srcdir)/web/page/app.css > $@.tmp && mv $@.tmp $@
BUILT_SOURCES = web/assets.c
CLEANFILES += web/assets.c
EXTRA_DIST += web/embed.sh $(WEB_PAGE_FILES)
