#!/bin/sh
# What a pane of the console shows is what tmux shows for the same bytes at
# the same size, when they arrive in steps: each step is its own frame, and
# a frame draws again only the columns of a row that changed (a wide
# character whole).  Characters and attributes of every row are compared.
. "$top_srcdir/tests/e2e/tui-lib.sh"

steps=$pv_dir/steps.sh
cat > "$steps" <<'EOF'
# steps.sh SIZEFILE: twelve rows of text, then changes to parts of rows, a
# pause after each so the console draws each in a frame of its own.
stty size > "$1"
p() { printf "$@"; sleep 0.2; }
p '\033[2J\033[H'
i=1
while [ $i -le 12 ]; do
	printf 'row %02d: the quick brown fox jumps over the lazy dog 0123456789\r\n' $i
	i=$((i + 1))
done
sleep 0.2
p '\033[3;10HXY'
p '\033[4;1Hx日本語 done\r\033[1Cline 01'
p '\033[5;5H\033[3X'
p '\033[6;2H\033[2P'
p '\033[7;2H\033[2@'
p '\033[8;20H\033[K'
p '\033[9;1H語語語語\033[9;4Hz'
p '\033[10;3H\033[4hINS\033[4l'
p '\033[11;1H\033[7mrev\033[m plain'
p '\033[2;10r\033[10;1H\n\n\033[r'
p '\033[14;1H日本語日本語\033[14;3Hab'
p '\033[15;1Hwide at end\033[15;1H\033[1@'
p '\033[16;1H日本'
p 'x'
p '\033[17;1H\033[1;31mred\033[m \033[4munder\033[m'
p '\033[17;2H\033[42mE\033[m'
p '\033[13;1HDONE-MARK'
sleep 60
EOF

pv_start 160 48
pv_type "$PTYVISOR --sandbox none -- sh $steps $pv_dir/size"
pv_keys Enter
pv_see "DONE-MARK" 30; ok $? "the steps ran in a pane of the console"
read -r rows cols < "$pv_dir/size"
# The pane's rows: below its title line.
tmux -L "$pv_sock" capture-pane -p -e -S 1 -E "$rows" > "$pv_dir/pane"

ref=$pv_sock-ref
cleanup_cmd "tmux -L $ref kill-server 2>/dev/null"
tmux -L "$ref" -f /dev/null new-session -d -x "$cols" -y "$rows" \
    "env LANG=C.UTF-8 TERM=screen sh $steps $pv_dir/size2"
tmux -L "$ref" set-option -g status off >/dev/null
wait_for "tmux -L $ref capture-pane -p | grep -q DONE-MARK" 30
ok $? "and in tmux at the pane's size ($cols x $rows)"
tmux -L "$ref" capture-pane -p -e > "$pv_dir/tmux"

diff "$pv_dir/tmux" "$pv_dir/pane" > "$pv_dir/diff"
ok $? "every row shows the same characters and attributes as in tmux"
[ -s "$pv_dir/diff" ] && diag "$(cat -v "$pv_dir/diff")"
grep -q '日本x' "$pv_dir/pane"
ok $? "a character after a wide one, written in a later frame, stands after it"
done_testing
