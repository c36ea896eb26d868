# net/: which hosts a sandboxed command may reach, and the proxy that is its
# only way out.  Uses base/.
noinst_LIBRARIES += libnet.a
libnet_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libnet_a_SOURCES = net/hostlist.h net/hostlist.c net/resolve.h net/resolve.c \
	net/proxy.h net/proxy-int.h net/proxy.c net/proxy-conn.c \
	net/proxy-request.c net/proxy-serve.c net/relay.h net/relay.c \
	net/steer.h net/steer.c net/ask.h net/ownport.h net/ownport.c
