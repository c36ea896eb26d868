#!/bin/sh
# Build the libFuzzer targets with clang:
#	fuzz/build.sh [OUTDIR]		(default: ./fuzz-out)
# giving OUTDIR/fuzz-cast, fuzz-proto, fuzz-rules, fuzz-shsplit, fuzz-config
# and fuzz-mcp; then run one on a scratch copy of its seeds, e.g.:
#	mkdir -p fuzz-out/work-cast
#	fuzz-out/fuzz-cast -max_total_time=60 -dict=fuzz/cast.dict \
#	    fuzz-out/work-cast fuzz/corpus/cast
# (fuzz/run.sh does that for every target).  Not part of the normal build.
# Needs clang, its fuzzer runtime (Debian: libclang-rt-14-dev, pulled in by
# clang-14), libjansson-dev, libinih-dev, libseccomp-dev and libvterm-dev.
set -eu

top=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-fuzz-out}
CC=${CC:-clang}
mkdir -p "$out"

# Check that -fsanitize=fuzzer links before compiling anything.
probe="$out/probe.c"
printf '%s\n' '#include <stddef.h>' '#include <stdint.h>' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n);' \
    'int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)' \
    '{ (void)d; (void)n; return 0; }' > "$probe"
# Without it the targets cannot be built here at all: exit 2, apart from a
# target that fails to build (1).
if ! $CC -fsanitize=fuzzer -o "$out/probe" "$probe" 2>/dev/null; then
	echo "fuzz/build.sh: $CC cannot link -fsanitize=fuzzer;" \
	    "install libclang-rt-14-dev (apt-get install libclang-rt-14-dev)" >&2
	exit 2
fi
rm -f "$probe" "$out/probe"

# target NAME SOURCES... -- LIBS...: one fuzzer, sources relative to top.
target() {
	name=$1; shift
	srcs=""
	while [ "$1" != "--" ]; do srcs="$srcs $top/$1"; shift; done
	shift
	# shellcheck disable=SC2086
	$CC -g -O1 -D_GNU_SOURCE -DPACKAGE_VERSION="\"$version\"" -I"$top" \
	    $(pkg-config --cflags jansson inih libseccomp) \
	    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
	    -o "$out/$name" "$top/fuzz/$name.c" $srcs "$@"
	echo "built $out/$name"
}

# The version configure would give (from AC_INIT).
version=$(sed -n 's/^AC_INIT(\[ptyvisor\], \[\([^]]*\)\].*/\1/p' \
    "$top/configure.ac")
base="base/util.c base/utf8.c base/quote.c"
policy="policy/policy.c policy/exec.c policy/rules.c policy/shsplit.c policy/readonly.c
policy/gitrepo.c"
sandbox="sandbox/sandbox.c sandbox/child.c sandbox/ns.c sandbox/landlock.c
sandbox/seccomp.c sandbox/execcheck.c sandbox/exec-read.c sandbox/exec-tree.c sandbox/limits.c sandbox/caps.c sandbox/stage.c
sandbox/net.c sandbox/hostsvc.c sandbox/guard.c sandbox/guard-place.c sandbox/guard-mount.c
sandbox/guard-write.c pty/pty.c"
net="net/hostlist.c net/resolve.c net/proxy.c net/proxy-conn.c
net/proxy-request.c net/proxy-serve.c net/relay.c net/steer.c net/ownport.c
base/loop.c"

# shellcheck disable=SC2086
target fuzz-cast record/cast.c record/cast-header.c record/cast-input.c \
    record/replay.c $base -- $(pkg-config --libs jansson) -lm
# shellcheck disable=SC2086
target fuzz-proto control/proto.c control/proto-encoding.c \
    control/proto-events.c control/proto-requests.c control/proto-decode.c \
    $sandbox $net $base -- $(pkg-config --libs libseccomp jansson)
# shellcheck disable=SC2086
target fuzz-shsplit policy/shsplit.c $base --
# shellcheck disable=SC2086
target fuzz-web web/web-page.c web/web-auth.c control/proto.c \
    control/proto-encoding.c control/proto-events.c control/proto-requests.c \
    control/proto-decode.c policy/shsplit.c record/ending.c $sandbox $net \
    $base -- \
    $(pkg-config --libs libseccomp jansson)
# shellcheck disable=SC2086
target fuzz-rules $policy $base --
# shellcheck disable=SC2086
target fuzz-config conf/config.c conf/config-apply.c $policy $sandbox $net $base -- \
    $(pkg-config --libs inih libseccomp jansson)
# shellcheck disable=SC2086
# fuzz-mcp: the tools' table brings the whole MCP server in, and with it
# the client's codec (the sandbox's profile names, as for fuzz-proto);
# what the target never reaches (control/control.c's socket server,
# linked for the socket's path) is dropped at link time (-z
# start-stop-gc: the coverage sections would keep it; binutils 2.37 and
# later).
mcp="mcp/mcp.c mcp/outcap.c mcp/tools.c mcp/tool-run.c mcp/tool-session.c
mcp/mcpd.c mcp/mcp-jobs.c mcp/mcp-results.c mcp/mcp-config.c"
term="term/colmode.c term/feed.c term/grid.c term/reflow.c term/screen.c
term/screen-read.c term/screen-redraw.c term/scrollback.c term/textout.c"
control="control/client.c control/control.c control/proto.c
control/proto-encoding.c control/proto-events.c control/proto-requests.c
control/proto-decode.c"
# shellcheck disable=SC2086
target fuzz-mcp $mcp $term $control $sandbox $net $base -- \
    $(pkg-config --cflags --libs libseccomp jansson vterm) \
    -ffunction-sections -Wl,--gc-sections -Wl,-z,start-stop-gc
