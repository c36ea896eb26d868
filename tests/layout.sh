#!/bin/sh
# layout.sh - the folders depend one way (doc/architecture.md): every
# #include of a file in another folder of ours must be allowed by the
# table below, which is CODE-MAP.md's; and no library includes tests/ or
# fuzz/.  A new arrow up fails here first.
. "$top_srcdir/tests/tap.sh"

# folder: the folders it may include.
allowed() {
	case $1 in
	base)		echo "" ;;
	pty)		echo "base" ;;
	net)		echo "base" ;;
	sandbox)	echo "base net pty" ;;
	term)		echo "base" ;;
	record)		echo "base term" ;;
	policy)		echo "base net sandbox" ;;
	conf)		echo "base net sandbox policy" ;;
	session)	echo "base pty sandbox term record" ;;
	control)	echo "base net sandbox policy record session" ;;
	mcp)		echo "base sandbox term conf control" ;;
	web)		echo "base net sandbox term record policy conf session control" ;;
	tui)		echo "base pty net sandbox term record policy session control" ;;
	server)		echo "base pty net sandbox term record policy conf session control tui" ;;
	cli)		echo "base pty net sandbox term record policy conf session control mcp web tui server" ;;
	esac
}

cd "$top_srcdir" || exit 1
for dir in base pty net sandbox term record policy conf session control mcp web tui server cli; do
	bad=""
	for f in "$dir"/*.c "$dir"/*.h; do
		[ -e "$f" ] || continue
		for inc in $(sed -n 's/^#include "\([a-z]*\)\/.*/\1/p' "$f" |
		    sort -u); do
			[ "$inc" = "$dir" ] && continue
			case " $(allowed "$dir") " in
			*" $inc "*) ;;
			*) bad="$bad $f->$inc" ;;
			esac
		done
	done
	is "$bad" "" "$dir/ includes only $( [ -n "$(allowed $dir)" ] &&
	    allowed $dir || echo 'nothing of ours')"
done
n=$(wc -l < CODE-MAP.md)
grep -q '^| `control/` .* | base, net, sandbox, policy, record, session |$' CODE-MAP.md
ok $? "CODE-MAP.md's table says what this test checks ($n lines)"
done_testing
