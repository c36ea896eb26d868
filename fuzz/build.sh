#!/bin/sh
# Build the libFuzzer targets (the asciicast reader, the MCP JSON-RPC layer)
# with clang:
#	fuzz/build.sh [OUTDIR]		(default: ./fuzz-out)
# then run it on a copy of the seed corpus, e.g.:
#	mkdir -p fuzz-out/work
#	fuzz-out/fuzz-cast -max_total_time=60 -dict=fuzz/cast.dict \
#	    fuzz-out/work fuzz/corpus
# Not part of the normal build.  Needs clang, its fuzzer runtime (Debian:
# libclang-rt-14-dev, pulled in by clang-14) and libjansson-dev.
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
if ! $CC -fsanitize=fuzzer -o "$out/probe" "$probe" 2>/dev/null; then
	echo "fuzz/build.sh: $CC cannot link -fsanitize=fuzzer;" \
	    "install libclang-rt-14-dev (apt-get install libclang-rt-14-dev)" >&2
	exit 1
fi
rm -f "$probe" "$out/probe"

cflags=$(pkg-config --cflags jansson)
libs=$(pkg-config --libs jansson)
# shellcheck disable=SC2086
$CC -g -O1 -D_GNU_SOURCE -I"$top" $cflags \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -o "$out/fuzz-cast" "$top/fuzz/fuzz-cast.c" "$top/record/cast.c" \
    "$top/record/cast-header.c" "$top/record/cast-input.c" \
    "$top/record/replay.c" "$top/base/util.c" "$top/base/utf8.c" $libs -lm
echo "built $out/fuzz-cast"
# shellcheck disable=SC2086
$CC -g -O1 -D_GNU_SOURCE -I"$top" $cflags \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
    -o "$out/fuzz-mcp" "$top/fuzz/fuzz-mcp.c" "$top/mcp/mcp.c" \
    "$top/mcp/tools.c" "$top/mcp/outcap.c" "$top/base/util.c" $libs
echo "built $out/fuzz-mcp"
