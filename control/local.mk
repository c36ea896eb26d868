# control/: agents talk to ptyvisor: the JSON-lines protocol, the approval
# queue, the control socket server and its client.  Uses base/, policy/ and
# session/.
noinst_LIBRARIES += libcontrol.a
libcontrol_a_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
libcontrol_a_SOURCES = \
	control/approval.c control/approval.h control/approval-int.h \
	control/approval-judge.c \
	control/ask-server.c control/ask-server.h \
	control/client.c control/client.h \
	control/control.c control/control.h control/control-int.h \
	control/conn.c control/console.c control/forward.c control/requests.c \
	control/proto.c control/proto.h control/proto-int.h \
	control/proto-events.c control/proto-encoding.c \
	control/proto-client.h control/proto-requests.c control/proto-decode.c
