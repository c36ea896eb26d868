# web/: `ptyvisor web`, the browser front end: HTTP and WebSocket
# (libwebsockets), the tokens and names it checks, the page's state and
# decisions, the page itself built in (web/page/ through web/embed.sh).
# Uses base/, net/ (its port claimed), policy/ (an edited command read
# back), conf/ and control/ (the client).
noinst_LIBRARIES += libweb.a
libweb_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS) $(LWS_CFLAGS)
libweb_a_SOURCES = web/web.c web/web.h web/web-int.h web/web-console.c \
	web/web-send.c \
	web/web-gate.c web/web-view.c \
	web/web-auth.c web/web-auth.h web/web-page.c web/web-page.h \
	web/assets.h
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

# xterm.js for the console on the page, pinned in web/vendor (npm ci
# there): installed under the data directory when it is there; without
# it the page has no console and says so, the rest works.
WEB_XTERM = $(srcdir)/web/vendor/node_modules/@xterm/xterm
install-data-local:
	@if [ -f $(WEB_XTERM)/lib/xterm.js ]; then \
	    $(MKDIR_P) $(DESTDIR)$(pkgdatadir)/web/xterm/lib \
	        $(DESTDIR)$(pkgdatadir)/web/xterm/css && \
	    $(INSTALL_DATA) $(WEB_XTERM)/lib/xterm.js \
	        $(DESTDIR)$(pkgdatadir)/web/xterm/lib/xterm.js && \
	    $(INSTALL_DATA) $(WEB_XTERM)/css/xterm.css \
	        $(DESTDIR)$(pkgdatadir)/web/xterm/css/xterm.css && \
	    $(INSTALL_DATA) $(WEB_XTERM)/LICENSE \
	        $(DESTDIR)$(pkgdatadir)/web/xterm/LICENSE; \
	else \
	    echo "note: no xterm.js in web/vendor (npm ci there): ptyvisor web will have no console"; \
	fi
uninstall-local:
	rm -rf $(DESTDIR)$(pkgdatadir)/web/xterm
EXTRA_DIST += web/vendor/package.json web/vendor/package-lock.json
