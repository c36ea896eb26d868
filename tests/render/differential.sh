#!/bin/sh
# differential.sh - the same bytes shown by a session screen and by tmux at
# the same size: every row's characters, colours and attributes and the
# cursor compared (tests/render/cellcmp.py), each difference named.
#
# Byte streams are written here with printf; tmux shows them in a pane
# that runs `cat` on a raw tty, our screen in tests/render/screen-dump.
# Real programs (vi, less, man, vttest, top) run under script(1) in a tmux
# pane: tmux shows what they drew, the typescript holds the same bytes for
# our screen.
. "$top_srcdir/tests/tap.sh"

DUMP="$top_builddir/tests/render/screen-dump"
CMP="$top_srcdir/tests/render/cellcmp.py"
if ! command -v tmux >/dev/null 2>&1 || ! command -v python3 >/dev/null 2>&1
then
	skip "tmux and python3 are needed to compare with tmux"
	done_testing
fi
. "$top_srcdir/tests/e2e/tmux.sh"
T=$(mktemp -d)
cleanup_cmd "rm -rf '$T'"
tmw() { timeout 20 tmux -L "$TMUX_SOCK" -f /dev/null wait-for "$1"; }
# One idle session for the whole test: the server never exits between
# cases (a client racing a server on its way out loses its command).
tm new-session -d -s keep 'exec sleep 600'

# settle NAME: wait until the pane stops changing (tmux reads the pty on
# its own schedule), then capture it with the cursor into $T/NAME.tmux.
settle() {
	_prev=''
	for _i in 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20; do
		sleep 0.15
		_cur=$(tm capture-pane -p -e -N -t "$1"; tm display -p -t "$1" \
		    'cursor #{cursor_y},#{cursor_x} #{pane_width}')
		[ -n "$_cur" ] && [ "x$_cur" = "x$_prev" ] && break
		_prev=$_cur
	done
	printf '%s\n' "$_cur" > "$T/$1.tmux"
}

# compare NAME WHAT: a TAP test, run by compare_all (one interpreter for
# every comparison).  With $known set (why tmux differs), a difference is
# expected: a TODO test.
known=''
compare() {
	printf '%s|%s|%s\n' "$1" "$known" "$2" >> "$T/cases"
}

# compare_all: every comparison, the differences as diagnostics.
compare_all() {
	[ -s "$T/cases" ] || return
	python3 "$CMP" --dir "$T" $(cut -d'|' -f1 "$T/cases") > "$T/results" 2>&1
	while IFS='|' read -r _n _known _what; do
		_rc=$(awk -v n="$_n" '$1 == n { print $2 }' "$T/results")
		[ "x$_rc" = x0 ] || _rc=1
		if [ -n "$_known" ]; then
			tap_n=$((tap_n + 1))
			[ $_rc -eq 0 ] && _st=ok || _st='not ok'
			echo "$_st $tap_n - $_what # TODO $_known"
		else
			ok $_rc "$_what"
		fi
		[ $_rc -eq 0 ] && continue
		if [ -f "$T/$_n.diff" ]; then
			sed 's/^/#   /' "$T/$_n.diff"
		else
			sed 's/^/#   /' "$T/results" | head -20
		fi
	done < "$T/cases"
}

# render NAME ROWS COLS FILE [ROWS2 COLS2 FILE2] WHAT: FILE shown at
# ROWSxCOLS (then the screen resized to ROWS2xCOLS2 and FILE2 shown) by
# tmux and by our screen, compared.
render() {
	_n=$1 _r=$2 _c=$3 _f=$4
	shift 4
	_cmd="stty raw -echo; tmux wait-for go-$_n; cat '$_f'"
	_cmd="$_cmd; tmux wait-for -S one-$_n"
	if [ $# -gt 1 ]; then
		_cmd="$_cmd; tmux wait-for go2-$_n; cat '$3'"
		_cmd="$_cmd; tmux wait-for -S two-$_n"
	fi
	tm set-option -g status off \; new-session -d -s "$_n" -x "$_c" \
	    -y "$_r" "$_cmd; exec sleep 600"
	tm wait-for -S "go-$_n"
	tmw "one-$_n"
	if [ $# -gt 1 ]; then
		settle "$_n"
		tm resize-window -t "$_n" -x "$2" -y "$1"
		tm wait-for -S "go2-$_n"
		tmw "two-$_n"
		"$DUMP" "$_r" "$_c" "$_f" "$1" "$2" "$3" > "$T/$_n.ours"
		shift 3
	else
		"$DUMP" "$_r" "$_c" "$_f" > "$T/$_n.ours"
	fi
	settle "$_n"
	tm kill-session -t "$_n"
	compare "$_n" "$1"
}

# --- byte streams (octal escapes: POSIX printf has no \x or \e) ----------
p() { printf "$@"; }

p 'plain \346\227\245\346\234\254\350\252\236\343\203\206\343\202\255\r\n' > "$T/cjk"
p 'emoji \360\237\230\200\360\237\221\215\360\237\216\211 end\r\n' >> "$T/cjk"
p 'comb e\314\201 a\314\210 n\314\203 o\314\202\314\243 |\r\n' >> "$T/cjk"
p 'abcdefghijklmnopqrs\346\227\245x\r\n' >> "$T/cjk"
p '\344\270\255\346\226\207\344\270\255\346\226\207\344\270\255\346\226\207\344\270\255\346\226\207\344\270\255\346\226\207\344\270\255' >> "$T/cjk"
render cjk 8 20 "$T/cjk" "CJK, emoji and combining characters, a wide one at the edge"

p 'x\346\227\245\346\234\254\350\252\236 done\r\033[1Cline 01\r\n' > "$T/wide"
p 'x\346\227\245\346\234\254\350\252\236 done\r\033[2Cab\r\n' >> "$T/wide"
p 'x\346\227\245\346\234\254\350\252\236 done\r\033[3CZ\r\n' >> "$T/wide"
p '\033[31m\346\227\245\346\234\254\033[0m\r\033[1C\033[32m\350\252\236\033[0m\r\n' >> "$T/wide"
p 'ab\346\227\245cd\033[6;3H\033[K\r\n' >> "$T/wide"
render wide 8 20 "$T/wide" "writing over either half of a wide character blanks the other"

# tmux's ECH and DCH keep one half of a wide character they cut (its
# capture then prints the character at a column it does not own, or drops
# a column); terminals blank the half left behind, and so do we.
p '\346\227\245\346\234\254\350\252\236\033[1;2H\033[1X|\r\n' > "$T/wide-cut"
p '\346\227\245\346\234\254\350\252\236\033[2;3H\033[1P' >> "$T/wide-cut"
known="tmux keeps half of a wide character that ECH or DCH cuts"
render wide-cut 4 20 "$T/wide-cut" "erasing or deleting half of a wide character"
known=''

# A row written to its last column leaves the cursor there with a wrap
# pending.  tmux then puts its cursor one past the last column: EL leaves
# that column alone, CUB 1 and BS land on it; xterm and libvterm keep the
# cursor on the last column, so EL erases it and CUB 1 and BS land one
# before (top's reverse-video header, vttest's 132-column frame and its
# autowrap screen show them).
EL_PENDING="tmux's EL leaves the last column when a wrap is pending"
CUB_PENDING="tmux's CUB counts from one past the last column when a wrap is pending"
BS_PENDING="tmux's BS counts from one past the last column when a wrap is pending"
p '\033[7m%s\033[m\033[K\r\n' 'abcdefghijklmnopqrst' > "$T/el-pending"
known=$EL_PENDING
render el-pending 3 20 "$T/el-pending" "EL with a wrap pending"
p '%s\033[1DX\r\n' 'abcdefghijklmnopqrst' > "$T/cub-pending"
known=$CUB_PENDING
render cub-pending 3 20 "$T/cub-pending" "CUB with a wrap pending"
p '%s\010 X\r\n' 'abcdefghijklmnopqrst' > "$T/bs-pending"
known=$BS_PENDING
render bs-pending 3 20 "$T/bs-pending" "BS with a wrap pending"
known=''

# DECSTBM homes the cursor; in origin mode home is the region's top (VT100,
# xterm, libvterm), where tmux goes to the screen's.
DECSTBM_ORIGIN="tmux's DECSTBM homes the cursor to the screen's top in origin mode"
p '\033[?6h\033[4;5r\r\nbottom\033[1;1Habove\033[?6l\033[r' > "$T/stbm-origin"
known=$DECSTBM_ORIGIN
render stbm-origin 6 20 "$T/stbm-origin" "DECSTBM in origin mode"
known=''

# DECSTBM whose region, clamped to the screen, is under two lines (past
# the bottom, as a program that thinks the screen taller sends it, or one
# line): xterm and tmux ignore it, margins and cursor as they were, where
# libvterm resets the margins and homes the cursor.
p 'abc\r\n\033[3;7H\033[40;41rY' > "$T/stbm-past"
render stbm-past 10 20 "$T/stbm-past" "DECSTBM past the bottom: ignored, the text where the cursor was"
p '\033[2;4r\033[3;7H\033[5;5rY\033[1;1Htop\033[5;1Hbelow\033[4;1Hx\n\ny' > "$T/stbm-one"
p '\033[3;1H\033[9;99rZ\033[r' >> "$T/stbm-one"
render stbm-one 8 20 "$T/stbm-one" "DECSTBM of one line, or from below the bottom: ignored, the region kept (LF scrolls it)"

# DECCOLM (132 or 80 columns) clears the screen and homes the cursor; the
# width stays (tmux's, ours), the scroll region too.
p 'one\r\ntwo\033[?3hX\r\nthree\033[?3;4lY' > "$T/deccolm"
render deccolm 5 20 "$T/deccolm" "DECCOLM clears the screen and homes the cursor"

p '\033[2J\033[Htop\r\n' > "$T/region"
for i in 1 2 3 4 5 6 7; do p 'line %d\r\n' "$i" >> "$T/region"; done
p '\033[3;6r\033[6;1H' >> "$T/region"
for i in 1 2 3 4; do p '\nscrolled %d\r' "$i" >> "$T/region"; done
p '\033[3;1H\033M\033Mreverse\033[2S\033[1T\033[r\033[10;1Hbottom' >> "$T/region"
render region 10 30 "$T/region" "scroll regions: LF at the bottom margin, RI, SU, SD"

p 'primary 1\r\nprimary 2\r\n\033[?1049h\033[Halt 1\r\nalt 2\033[?1049l' > "$T/alt"
p 'back\r\n\033[?47h\033[2J\033[2;3Hshown on the alternate screen' >> "$T/alt"
render alt 6 40 "$T/alt" "the alternate screen: entered, left, entered again"

for i in 0 1 2 3 4 5 6 7; do p '\033[3%dm3%d\033[9%dm9%d\033[4%dm4%d\033[0m ' "$i" "$i" "$i" "$i" "$i" "$i"; done > "$T/colour"
p '\r\n' >> "$T/colour"
for i in 16 52 88 124 160 196 202 226 231 232 244 255; do
	p '\033[38;5;%dm%d\033[48;5;%dm#\033[0m' "$i" "$i" "$((255 - i))"
done >> "$T/colour"
p '\r\n\033[38;2;255;128;0mrgb\033[48;2;0;64;128mboth\033[39mbg\033[0m\r\n' >> "$T/colour"
p '\033[1mbold\033[3mitalic\033[4munder\033[5mblink\033[7mrev\033[9mstrike\033[0m' >> "$T/colour"
p '\033[22;23;24;25;27;29m\r\n\033[44merased with blue\033[K\033[0m\033[60G|\r\n' >> "$T/colour"
p '\033[41m\033[3X\033[0m!\033[48;5;100m\033[J\033[0m\033[6;60H|\033[8;60H|' >> "$T/colour"
render colour 8 60 "$T/colour" "16, 256 and true colours, attributes, erase with a background"

for i in 1 2 3 4 5 6; do p 'row %d abcdefghij\r\n' "$i"; done > "$T/insdel"
p '\033[2;1H\033[2L\033[4;3H\033[M\033[5;4H\033[3@\033[6;2H\033[2P\033[7;5H\033[4X' >> "$T/insdel"
p '\033[1;4H\033[4hINS\033[4l\033[8;1H\346\227\245\346\234\254\350\252\236\033[8;5H\033[1P' >> "$T/insdel"
p '\033[9;1H\346\227\245\346\234\254\350\252\236\033[9;1H\033[2@' >> "$T/insdel"
render insdel 10 30 "$T/insdel" "insert and delete lines and characters, insert mode"

for i in 1 2 3 4 5 6 7 8; do p 'line %d\r\n' "$i"; done > "$T/resize1"
p 'last' >> "$T/resize1"
p '\r\nafter' > "$T/resize2"
render shrink 10 30 "$T/resize1" 5 20 "$T/resize2" \
    "resize: fewer rows and columns push lines into the scrollback"
render grow 6 30 "$T/resize1" 9 40 "$T/resize2" \
    "resize: more rows bring lines back from the scrollback"

# Lines the program wrote as one, soft-wrapped, are rewrapped to the new
# width; a line ended by CR LF stays two.
p 'the first line is long enough to wrap twice at twenty\r\nshort\r\n' > "$T/reflow1"
p '\346\227\245\346\234\254\350\252\236\346\227\245\346\234\254\350\252\236\346\227\245\346\234\254\350\252\236\346\227\245\346\234\254\350\252\236ab\r\n' >> "$T/reflow1"
p '12345678901234567890\r\n$ typed' >> "$T/reflow1"
p ' more' > "$T/reflow2"
render narrower 12 20 "$T/reflow1" 12 13 "$T/reflow2" \
    "resize: a narrower screen rewraps soft-wrapped lines"
render wider 12 20 "$T/reflow1" 12 33 "$T/reflow2" \
    "resize: a wider screen joins them again"
render reflow-scroll 6 20 "$T/reflow1" 6 9 "$T/reflow2" \
    "resize: rewrapped lines that no longer fit go to the scrollback"
render reflow-back 6 9 "$T/reflow1" 6 30 "$T/reflow2" \
    "resize: joined lines make room for the scrollback's to come back"
render reflow-both 12 20 "$T/reflow1" 5 13 "$T/reflow2" \
    "resize: fewer rows and columns at once"

# --- real programs under script(1) -----------------------------------------
# program NAME ROWS COLS TEXT-TO-WAIT-FOR CMD [KEYS...]: CMD in a pane, the
# keys typed, then the pane and the typescript compared.
program() {
	_n=$1 _r=$2 _c=$3 _w=$4 _prog=$5
	shift 5
	tm set-option -g status off \; new-session -d -s "$_n" -x "$_c" \
	    -y "$_r" "stty raw -echo; echo \$\$ > '$T/$_n.pid'; tmux wait-for go-$_n; exec script -qfc \"$_prog\" '$T/$_n.ts'"
	tm wait-for -S "go-$_n"
	# Keys only once the program has drawn (it reads them from then on).
	wait_for "tm capture-pane -p -t '$_n' | grep -q '[^ ]'" 10
	# script(1) outlives its pane's hang-up, with the program under it:
	# both are ended by pid (stop_program), at the latest at exit.
	_pids="$(cat "$T/$_n.pid") $(pgrep -P "$(cat "$T/$_n.pid")")"
	for _p in $_pids; do cleanup_pid "$_p"; done
	for _k in "$@"; do
		sleep 0.3
		tm send-keys -t "$_n" "$_k"
	done
	if ! wait_for "tm capture-pane -p -t '$_n' | grep -qF -- '$_w'" 10; then
		ok 1 "$_n shows '$_w'"
		stop_program
		return
	fi
	settle "$_n"
	sed '1{/^Script started/d}' "$T/$_n.ts" > "$T/$_n.bytes"
	"$DUMP" "$_r" "$_c" "$T/$_n.bytes" > "$T/$_n.ours"
	stop_program
	compare "$_n" "$_n: $_prog"
}

# The pane of the program() running now, and script(1) and its child.
stop_program() {
	tm kill-session -t "$_n"
	kill -9 $_pids 2> /dev/null
}

{
	for i in $(seq 1 60); do
		echo "line $i of the file, some words to wrap and search: $i $i $i $i $i"
	done
	printf '\346\227\245\346\234\254\350\252\236 and e\314\201 in a line\n\tindented by a tab\n'
} > "$T/text"
if command -v vi >/dev/null 2>&1; then
	program vi 20 60 'ine 40 of the' "vi -u NONE -i NONE -N -n '$T/text'" \
	    G k o 'NEW TEXT' Escape 40G x
else
	skip "vi is not installed"
fi
if command -v less >/dev/null 2>&1; then
	program less 20 70 'line 30 of' "LESSHISTFILE=- less '$T/text'" \
	    ' ' '/line 3' Enter
else
	skip "less is not installed"
fi
if command -v man >/dev/null 2>&1 && man -l "$top_srcdir/doc/ptyvisor.1" \
    >/dev/null 2>&1; then
	program man 24 80 'SYNOPSIS' \
	    "MANPAGER=less LESSHISTFILE=- man -l '$top_srcdir/doc/ptyvisor.1'"
else
	skip "man cannot format a page here"
fi

# vttest's screens of cursor movements (the frame of E's, its 132-column
# one, autowrap, controls inside sequences, leading zeros), of screen
# features (wrap-around, tab stops, 132 and 80 columns on light and dark
# backgrounds, origin mode, graphic rendition) and of VT102 features
# (insert/delete line accordion, insert mode, delete and insert
# character), each a case: the keys to reach it, then the screen compared.  (Its
# terminal starts sane: script(1) copies the pane's raw modes to it, and
# vttest and top end their lines with a bare LF for the tty to expand.)
if command -v vttest >/dev/null 2>&1; then
	# vt_case CASE TEXT KEYS...: vttest driven by KEYS until TEXT shows.
	vt_case() {
		_vn=$1 _vw=$2
		shift 2
		program "vttest-$_vn" 24 80 "$_vw" 'stty sane; vttest' "$@"
	}
	vt_case cursor 'The screen should be cleared' 1 Enter
	known=$CUB_PENDING
	vt_case cursor132 'hader of' 1 Enter Enter
	known=''
	known=$BS_PENDING
	vt_case autowrap 'mixing control' 1 Enter Enter Enter
	known=''
	vt_case controls 'inside ESC sequences' 1 Enter Enter Enter Enter Enter
	vt_case zeros 'leading zeros' 1 Enter Enter Enter Enter Enter Enter
	vt_case wrap 'WRAP AROUND' 2 Enter
	vt_case tabs 'TAB setting' 2 Enter Enter
	vt_case 132-light '132 column mode, light' 2 Enter Enter Enter
	vt_case 80-light '80 column mode, light' 2 Enter Enter Enter Enter
	vt_case 132-dark '132 column mode, dark' 2 Enter Enter Enter Enter Enter
	vt_case 80-dark '80 column mode, dark' 2 Enter Enter Enter Enter Enter \
	    Enter
	known=$DECSTBM_ORIGIN
	vt_case origin 'the one above the bottom' 2 Enter Enter Enter Enter \
	    Enter Enter Enter Enter Enter Enter Enter
	known=''
	vt_case origin-top 'at the top of the screen' 2 Enter Enter Enter Enter \
	    Enter Enter Enter Enter Enter Enter Enter Enter
	vt_case rendition 'Graphic rendition' 2 Enter Enter Enter Enter Enter \
	    Enter Enter Enter Enter Enter Enter Enter Enter
	vt_case accordion 'Screen accordion' 8 Enter
	vt_case topbottom 'Top line: A' 8 Enter Enter
	vt_case insert-mode 'Insert Mode' 8 Enter Enter Enter
	vt_case delete-char 'Delete Character' 8 Enter Enter Enter Enter
	vt_case staggered 'should be staggered' 8 Enter Enter Enter Enter Enter
	vt_case insert-char 'If your terminal has the ANSI' 8 Enter Enter Enter \
	    Enter Enter Enter Enter
	# vttest told the screen is taller (50 lines) than the pane (24): its
	# scrolling regions ([25..26] for the small ones) reach past the
	# bottom, where xterm and tmux clamp them and ignore one of under two
	# lines, margins and cursor kept (libvterm would home the cursor).
	vt_tall() {
		_vn=$1 _vw=$2
		shift 2
		program "vttest-tall-$_vn" 24 80 "$_vw" \
		    'stty sane; vttest 50x80' "$@"
	}
	vt_tall soft-small 'Soft scroll down region' 2 Enter Enter Enter Enter \
	    Enter Enter Enter
	vt_tall soft-whole 'Soft scroll down region' 2 Enter Enter Enter Enter \
	    Enter Enter Enter Enter
	vt_tall jump-small 'Jump scroll down region' 2 Enter Enter Enter Enter \
	    Enter Enter Enter Enter Enter
	vt_tall jump-whole 'Jump scroll down region' 2 Enter Enter Enter Enter \
	    Enter Enter Enter Enter Enter Enter
else
	skip "vttest is not installed"
fi
# top with its colours and highlighted sort column on (z, x), drawn once
# per key (-d 600: no refresh between the pane's capture and the
# typescript's).  Its reverse-video header fills the row, then EL: the one
# difference (the case's diagnostics name any other).
if command -v top >/dev/null 2>&1; then
	known=$EL_PENDING
	program top 24 100 'load average' 'stty sane; top -d 600' z x
	known=''
else
	skip "top is not installed"
fi

compare_all
done_testing
