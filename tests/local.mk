# Unit tests: one TAP program per module, no curses.
# Every library but the front end's and the command line's, in link order.
PV_TEST_LIBS = $(PV_CORE_LIBS) $(PV_EXT_LIBS)
EXTRA_DIST += tests/tap.h tests/tap.sh tests/unit/ask-host.h

# The folders depend one way: every include checked against the table.
TESTS += tests/layout.sh
EXTRA_DIST += tests/layout.sh
# Each command's --help against what it takes and the man page.
TESTS += tests/e2e/help.sh
EXTRA_DIST += tests/e2e/help.sh
# The sub-commands' option parser: both ways of reading, every message.
check_PROGRAMS += tests/unit/test-args
tests_unit_test_args_SOURCES = tests/unit/test-args.c cli/args.c cli/errors.c
tests_unit_test_args_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_args_LDADD = libbase.a $(PV_EXT_LIBS)
TESTS += tests/unit/test-args
# A screen row as the bytes that draw it (replay's painting).
check_PROGRAMS += tests/unit/test-paint-row
tests_unit_test_paint_row_SOURCES = tests/unit/test-paint-row.c cli/paint-row.c
tests_unit_test_paint_row_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_paint_row_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-paint-row
# The README's examples, run as written.
TESTS += tests/e2e/readme.sh
EXTRA_DIST += tests/e2e/readme.sh
# The README's first command as an ordinary user: packages through sudo,
# everything else that user's.
TESTS += tests/e2e/bootstrap-user.sh
EXTRA_DIST += tests/e2e/bootstrap-user.sh

# End-to-end tests of the real binary.
TESTS += tests/e2e/run.sh tests/e2e/run-tty.sh
EXTRA_DIST += tests/e2e/run.sh tests/e2e/run-tty.sh tests/e2e/castdata.py \
	tests/e2e/tmux.sh
# Recordings: the asciicast reader and playback timing.
check_PROGRAMS += tests/unit/test-cast tests/unit/test-replay
tests_unit_test_cast_SOURCES = tests/unit/test-cast.c
tests_unit_test_cast_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_cast_LDADD = $(PV_TEST_LIBS)
tests_unit_test_replay_SOURCES = tests/unit/test-replay.c
tests_unit_test_replay_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_replay_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-cast tests/unit/test-replay
EXTRA_DIST += tests/data/asciinema-rec.cast
# The libFuzzer targets are built by fuzz/build.sh, not by make; ship them.
EXTRA_DIST += fuzz/README.md fuzz/build.sh fuzz/run.sh fuzz/fuzz-cast.c \
	fuzz/cast.dict fuzz/fuzz-proto.c fuzz/proto.dict fuzz/fuzz-rules.c \
	fuzz/rules.dict fuzz/fuzz-shsplit.c fuzz/shsplit.dict fuzz/fuzz-config.c \
	fuzz/config.dict fuzz/fuzz-mcp.c fuzz/mcp.dict fuzz/corpus/cast/asciinema-rec.cast \
	fuzz/corpus/cast/v1.cast fuzz/corpus/cast/v2-truncated.cast \
	fuzz/corpus/cast/v3.cast fuzz/corpus/config/bad fuzz/corpus/config/bom-crlf \
	fuzz/corpus/config/full fuzz/corpus/proto/decide fuzz/corpus/proto/deny \
	fuzz/corpus/proto/exec fuzz/corpus/proto/exec-b64 fuzz/corpus/proto/hello \
	fuzz/corpus/proto/input fuzz/corpus/proto/input-b64 fuzz/corpus/proto/kill \
	fuzz/corpus/proto/list fuzz/corpus/proto/not-object \
	fuzz/corpus/proto/resize fuzz/corpus/proto/subscribe \
	fuzz/corpus/rules/bare-allow fuzz/corpus/rules/env fuzz/corpus/rules/quotes \
	fuzz/corpus/rules/readme fuzz/corpus/shsplit/ops fuzz/corpus/shsplit/quotes \
	fuzz/corpus/shsplit/rule fuzz/corpus/shsplit/unsafe \
	fuzz/corpus/mcp/legacy.jsonl fuzz/corpus/mcp/modern.jsonl \
	fuzz/corpus/mcp/broken.jsonl
# Policy rules and shell splitter; control protocol.
check_PROGRAMS += tests/unit/test-policy
tests_unit_test_policy_SOURCES = tests/unit/test-policy.c
tests_unit_test_policy_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_policy_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-policy
check_PROGRAMS += tests/unit/test-proto
tests_unit_test_proto_SOURCES = tests/unit/test-proto.c
tests_unit_test_proto_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_proto_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-proto
check_PROGRAMS += tests/unit/test-proto-client
tests_unit_test_proto_client_SOURCES = tests/unit/test-proto-client.c
tests_unit_test_proto_client_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_proto_client_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-proto-client
# Sandbox: a probe that tries each forbidden thing, and the TAP scripts that
# run it unsandboxed and under `ptyvisor sandbox`.
check_PROGRAMS += tests/sandbox/probe
tests_sandbox_probe_SOURCES = tests/sandbox/probe.c
# Exec checks: every way to run a program, tried outside and in a session.
check_PROGRAMS += tests/sandbox/execprobe
tests_sandbox_execprobe_SOURCES = tests/sandbox/execprobe.c
tests_sandbox_execprobe_LDADD = -lpthread
TESTS += tests/sandbox/exec-checks.sh
EXTRA_DIST += tests/sandbox/exec-checks.sh
TESTS += tests/sandbox/escape.sh tests/sandbox/escape-nobody.sh \
	tests/sandbox/terminal.sh tests/sandbox/limits.sh \
	tests/sandbox/no-namespaces.sh tests/sandbox/network.sh \
	tests/sandbox/network-nobody.sh tests/sandbox/cgroup2-vm.sh \
	tests/sandbox/guard.sh tests/sandbox/guard-nobody.sh \
	tests/sandbox/hostsvc.sh tests/sandbox/hostsvc-nobody.sh
EXTRA_DIST += tests/sandbox/cgroup2-vm.sh tests/sandbox/cgroup2-init.sh
EXTRA_DIST += tests/sandbox/lib.sh tests/sandbox/escape.sh tests/sandbox/escape-nobody.sh \
	tests/sandbox/terminal.sh tests/sandbox/limits.sh \
	tests/sandbox/no-namespaces.sh tests/sandbox/listeners.py \
	tests/sandbox/ttyharness.py tests/sandbox/network.sh \
	tests/sandbox/network-nobody.sh tests/sandbox/upstream.py \
	tests/sandbox/netclient.py tests/sandbox/guard.sh tests/sandbox/guard-nobody.sh \
	tests/sandbox/hostsvc.sh tests/sandbox/hostsvc-nobody.sh

# Exec checks: what a waiting exec asks, read from a real child.
check_PROGRAMS += tests/unit/test-execcheck
tests_unit_test_execcheck_SOURCES = tests/unit/test-execcheck.c
tests_unit_test_execcheck_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_execcheck_LDADD = libsandbox.a libnet.a libpty.a libbase.a $(PV_EXT_LIBS)
TESTS += tests/unit/test-execcheck

# Unit tests of the sandbox policy: parsing, defaults, environment, explain.
check_PROGRAMS += tests/unit/test-sandbox
tests_unit_test_sandbox_SOURCES = tests/unit/test-sandbox.c
tests_unit_test_sandbox_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_sandbox_LDADD = libsandbox.a libnet.a libpty.a libbase.a $(PV_EXT_LIBS)
TESTS += tests/unit/test-sandbox

# Unit tests of the guarded paths: expansion, placeholders, the docs' list.
check_PROGRAMS += tests/unit/test-guard
tests_unit_test_guard_SOURCES = tests/unit/test-guard.c
tests_unit_test_guard_LDADD = libsandbox.a libnet.a libpty.a libbase.a $(PV_EXT_LIBS)
TESTS += tests/unit/test-guard
# Where a session's cgroup v2 goes, on a made-up hierarchy.
check_PROGRAMS += tests/unit/test-limits
tests_unit_test_limits_SOURCES = tests/unit/test-limits.c
tests_unit_test_limits_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_limits_LDADD = libsandbox.a libnet.a libpty.a libbase.a $(PV_EXT_LIBS)
TESTS += tests/unit/test-limits
check_PROGRAMS += tests/unit/test-pty
tests_unit_test_pty_SOURCES = tests/unit/test-pty.c
tests_unit_test_pty_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_pty_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-pty

check_PROGRAMS += tests/unit/test-hostlist
tests_unit_test_hostlist_SOURCES = tests/unit/test-hostlist.c
tests_unit_test_hostlist_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_hostlist_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-hostlist

check_PROGRAMS += tests/unit/test-proxy
tests_unit_test_proxy_SOURCES = tests/unit/test-proxy.c
tests_unit_test_proxy_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_proxy_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-proxy

check_PROGRAMS += tests/unit/test-ownport
tests_unit_test_ownport_SOURCES = tests/unit/test-ownport.c
tests_unit_test_ownport_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_ownport_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-ownport

check_PROGRAMS += tests/unit/test-proxy-request
tests_unit_test_proxy_request_SOURCES = tests/unit/test-proxy-request.c
tests_unit_test_proxy_request_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_proxy_request_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-proxy-request

check_PROGRAMS += tests/unit/test-relay
tests_unit_test_relay_SOURCES = tests/unit/test-relay.c
tests_unit_test_relay_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_relay_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-relay

check_PROGRAMS += tests/unit/test-steer
tests_unit_test_steer_SOURCES = tests/unit/test-steer.c
tests_unit_test_steer_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_steer_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-steer

check_PROGRAMS += tests/unit/test-utf8
tests_unit_test_utf8_SOURCES = tests/unit/test-utf8.c
tests_unit_test_utf8_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_utf8_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-utf8

check_PROGRAMS += tests/unit/test-record
tests_unit_test_record_SOURCES = tests/unit/test-record.c
tests_unit_test_record_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_record_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-record

check_PROGRAMS += tests/unit/test-util
tests_unit_test_util_SOURCES = tests/unit/test-util.c
tests_unit_test_util_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_util_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-util
# SHA-256 against FIPS 180-4's examples.
check_PROGRAMS += tests/unit/test-sha256
tests_unit_test_sha256_SOURCES = tests/unit/test-sha256.c
tests_unit_test_sha256_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_sha256_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-sha256

check_PROGRAMS += tests/unit/test-watch
tests_unit_test_watch_SOURCES = tests/unit/test-watch.c
tests_unit_test_watch_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_watch_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-watch

check_PROGRAMS += tests/unit/test-quote
tests_unit_test_quote_SOURCES = tests/unit/test-quote.c
tests_unit_test_quote_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_quote_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-quote

check_PROGRAMS += tests/unit/test-ending
tests_unit_test_ending_SOURCES = tests/unit/test-ending.c
tests_unit_test_ending_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_ending_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-ending

check_PROGRAMS += tests/unit/test-lost
tests_unit_test_lost_SOURCES = tests/unit/test-lost.c
tests_unit_test_lost_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_lost_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-lost

check_PROGRAMS += tests/unit/test-history
tests_unit_test_history_SOURCES = tests/unit/test-history.c
tests_unit_test_history_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_history_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-history

check_PROGRAMS += tests/unit/test-scrollback
tests_unit_test_scrollback_SOURCES = tests/unit/test-scrollback.c
tests_unit_test_scrollback_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_scrollback_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-scrollback

check_PROGRAMS += tests/unit/test-loop
tests_unit_test_loop_SOURCES = tests/unit/test-loop.c
tests_unit_test_loop_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_loop_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-loop

check_PROGRAMS += tests/unit/test-session
tests_unit_test_session_SOURCES = tests/unit/test-session.c
tests_unit_test_session_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_session_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-session

check_PROGRAMS += tests/unit/test-screen
tests_unit_test_screen_SOURCES = tests/unit/test-screen.c
tests_unit_test_screen_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_screen_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-screen
# A screen drawn anew for a viewer that joins late.
check_PROGRAMS += tests/unit/test-screen-redraw
tests_unit_test_screen_redraw_SOURCES = tests/unit/test-screen-redraw.c
tests_unit_test_screen_redraw_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_screen_redraw_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-screen-redraw
# The recording player, driven by the event loop.
check_PROGRAMS += tests/unit/test-player
tests_unit_test_player_SOURCES = tests/unit/test-player.c
tests_unit_test_player_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_player_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-player
# replay, history and show end to end.
TESTS += tests/e2e/replay.sh
EXTRA_DIST += tests/e2e/replay.sh
# Rendering: scripts in tests/render run over the screen and tui/render.
check_PROGRAMS += tests/unit/test-render tests/unit/test-tui
tests_unit_test_render_SOURCES = tests/unit/test-render.c
tests_unit_test_render_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_render_LDADD = libtui.a $(PV_TEST_LIBS)
tests_unit_test_tui_SOURCES = tests/unit/test-tui.c
tests_unit_test_tui_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_tui_LDADD = libtui.a $(PV_TEST_LIBS)
TESTS += tests/unit/test-render tests/unit/test-tui
EXTRA_DIST += tests/render/sgr.test tests/render/colour.test \
	tests/render/wide.test tests/render/altscreen.test \
	tests/render/scroll.test tests/render/resize.test
# The same bytes through our screen and through tmux, cell by cell.
check_PROGRAMS += tests/render/screen-dump
tests_render_screen_dump_SOURCES = tests/render/screen-dump.c
tests_render_screen_dump_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_render_screen_dump_LDADD = $(PV_TEST_LIBS)
TESTS += tests/render/differential.sh
EXTRA_DIST += tests/render/differential.sh tests/render/cellcmp.py

# End to end: the console in a private tmux server.
TESTS += tests/e2e/tui-panes.sh tests/e2e/tui-robust.sh \
	tests/e2e/tui-replay.sh tests/e2e/tui-approval.sh tests/e2e/tui-exec.sh \
	tests/e2e/tui-typing.sh tests/e2e/tui-paste.sh tests/e2e/tui-mouse.sh \
	tests/e2e/attach.sh tests/e2e/ssh.sh tests/e2e/tui-network.sh \
	tests/e2e/tui-fidelity.sh
EXTRA_DIST += tests/e2e/tui-lib.sh tests/e2e/tui-panes.sh tests/e2e/attach.sh \
	tests/e2e/ssh.sh tests/e2e/tui-network.sh \
	tests/e2e/tui-robust.sh tests/e2e/tui-replay.sh \
	tests/e2e/tui-approval.sh tests/e2e/tui-exec.sh tests/e2e/tui-typing.sh \
	tests/e2e/tui-paste.sh tests/e2e/tui-mouse.sh tests/e2e/tui-fidelity.sh
# The approval queue.
check_PROGRAMS += tests/unit/test-approval
tests_unit_test_approval_SOURCES = tests/unit/test-approval.c
tests_unit_test_approval_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_approval_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-approval
# The control protocol against a real `ptyvisor serve`.
check_PROGRAMS += tests/control/client-test
tests_control_client_test_SOURCES = tests/control/client-test.c
tests_control_client_test_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_control_client_test_LDADD = $(PV_TEST_LIBS)
TESTS += tests/control/client-test
TESTS += tests/e2e/control.sh
EXTRA_DIST += tests/e2e/control.sh
# Secret variables dropped from agents' commands, named, asked when set.
TESTS += tests/e2e/secret-env.sh
EXTRA_DIST += tests/e2e/secret-env.sh
TESTS += tests/e2e/guard-socket.sh
EXTRA_DIST += tests/e2e/guard-socket.sh
TESTS += tests/e2e/ssh-git.sh
EXTRA_DIST += tests/e2e/ssh-git.sh
# ptyvisor-sh -c against sh -c, snippet by snippet.
TESTS += tests/e2e/shim-diff.sh
EXTRA_DIST += tests/e2e/shim-diff.sh
# make, npm and Python's subprocess with ptyvisor-sh as their shell.
TESTS += tests/e2e/shim-tools.sh
EXTRA_DIST += tests/e2e/shim-tools.sh
# Known read-only commands with a planted program: asked, never run.
TESTS += tests/e2e/readonly.sh
EXTRA_DIST += tests/e2e/readonly.sh
# ptyvisor check: verdicts, parts, JSON, exit statuses.
TESTS += tests/e2e/check.sh tests/e2e/exec-checks.sh
EXTRA_DIST += tests/e2e/check.sh tests/e2e/exec-checks.sh
# The server or the console SIGKILLed with a session running.
TESTS += tests/e2e/faults.sh
EXTRA_DIST += tests/e2e/faults.sh tests/e2e/serve-lib.sh tests/e2e/sshd-lib.sh
# The control socket under load: concurrency, bounds, bad input, leaks.
TESTS += tests/e2e/load.sh
# Many agents at once beside a typed pane (bench/many.sh times it).
TESTS += tests/e2e/many.sh
EXTRA_DIST += tests/e2e/many.sh
EXTRA_DIST += tests/e2e/load.sh tests/e2e/load-client.py
# A full disk under the state directory while a session runs.
TESTS += tests/e2e/fulldisk.sh
EXTRA_DIST += tests/e2e/fulldisk.sh
# The settings file.
check_PROGRAMS += tests/unit/test-config
tests_unit_test_config_SOURCES = tests/unit/test-config.c
tests_unit_test_config_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_config_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-config
TESTS += tests/e2e/config.sh
EXTRA_DIST += tests/e2e/config.sh
# ptyvisor mcp: the official MCP SDK clients (tests/mcp, npm) and raw lines.
TESTS += tests/e2e/mcp.sh
EXTRA_DIST += tests/e2e/mcp.sh tests/mcp/sdk.mjs tests/mcp/raw.py \
	tests/mcp/package.json tests/mcp/package-lock.json
# The MCP JSON-RPC layer and the output cap.
check_PROGRAMS += tests/unit/test-mcp
tests_unit_test_mcp_SOURCES = tests/unit/test-mcp.c
tests_unit_test_mcp_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_mcp_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-mcp
# Each MCP tool's inputSchema against what its checks accept.
check_PROGRAMS += tests/unit/test-mcp-schema
tests_unit_test_mcp_schema_SOURCES = tests/unit/test-mcp-schema.c
tests_unit_test_mcp_schema_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_mcp_schema_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-mcp-schema
# The Claude Code hook and the agents' recipes.
TESTS += tests/e2e/agents.sh
EXTRA_DIST += tests/e2e/agents.sh
# The real Claude Code CLI (tests/agents, npm) under the hook: secret
# variables do not reach the model.
TESTS += tests/agents/claude-secrets.sh
# The real Claude Code CLI configured as ptyvisor prints it: what its
# model gets through the hook and the MCP server, and without them.
TESTS += tests/agents/claude.sh
EXTRA_DIST += tests/agents/claude-secrets.sh tests/agents/messages-api.py \
	tests/agents/claude.sh \
	tests/agents/package.json tests/agents/package-lock.json \
	tests/agents/standin.py tests/agents/agent-lib.sh
# The real Codex CLI under the hook and the MCP server: the model gets
# what it gets without ptyvisor, the denials and a person's decisions.
TESTS += tests/agents/codex.sh
EXTRA_DIST += tests/agents/codex.sh tests/agents/responses-api.py
# The real Gemini CLI (tests/agents, npm, with the Node.js pinned there)
# against a stand-in Gemini API: its shell tool through the hook and
# ptyvisor's MCP tools, as the model sees them.
TESTS += tests/agents/gemini.sh
EXTRA_DIST += tests/agents/gemini.sh tests/agents/gemini-api.py

check_PROGRAMS += tests/unit/test-prune
tests_unit_test_prune_SOURCES = tests/unit/test-prune.c
tests_unit_test_prune_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS)
tests_unit_test_prune_LDADD = $(PV_TEST_LIBS)
TESTS += tests/unit/test-prune

TESTS += tests/e2e/bounds.sh
EXTRA_DIST += tests/e2e/bounds.sh

# The web front end's tokens, names, origins, the page's state and
# decisions.
check_PROGRAMS += tests/unit/test-web
tests_unit_test_web_SOURCES = tests/unit/test-web.c
tests_unit_test_web_CFLAGS = $(AM_CFLAGS) $(PV_EXT_CFLAGS) $(LWS_CFLAGS)
tests_unit_test_web_LDADD = libweb.a $(PV_TEST_LIBS) $(LWS_LIBS)
TESTS += tests/unit/test-web
# ptyvisor web: the approval page in a real headless Chromium
# (tests/web, npm), the HTTP checks with curl.
TESTS += tests/web/web.sh tests/web/console.sh
EXTRA_DIST += tests/web/web.sh tests/web/page.mjs tests/web/package.json \
	tests/web/package-lock.json tests/web/console.sh tests/web/console.mjs \
	tests/web/lib.mjs tests/web/web-lib.sh tests/web/sessions.mjs
CLEANFILES += tests/web/approval-390x844.png tests/web/console.png \
	tests/web/sessions.png
