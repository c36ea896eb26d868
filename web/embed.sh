#!/bin/sh
# embed.sh - web/assets.c from the page's files: each as a byte array and
# a row of web_assets[] (assets.h).  Arguments: PATH=FILE pairs, the path
# it is served at and the file; its type from the file's extension.
set -eu
echo '/* Made by web/embed.sh from web/page/: do not edit. */'
echo '#include "web/assets.h"'
n=0
for a in "$@"; do
	file=${a#*=}
	echo "static const unsigned char asset_$n[] = {"
	od -An -v -tx1 "$file" | sed 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g'
	echo "};"
	n=$((n + 1))
done
echo 'const struct web_asset web_assets[] = {'
n=0
for a in "$@"; do
	path=${a%%=*}
	case ${a#*=} in
	*.html)	type="text/html; charset=utf-8" ;;
	*.js)	type="text/javascript; charset=utf-8" ;;
	*.css)	type="text/css; charset=utf-8" ;;
	*)	type="application/octet-stream" ;;
	esac
	echo "	{ \"$path\", \"$type\", asset_$n, sizeof asset_$n },"
	n=$((n + 1))
done
echo '	{ 0, 0, 0, 0 }'
echo '};'
