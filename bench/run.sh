#!/bin/bash
# run.sh - ptyvisor next to tmux, screen and dvtm in one run: throughput,
# keystroke echo latency, memory, and the agents' path next to `script`.
# Every multiplexer runs inside bench/outerterm.c, a headless 120x40 outer
# terminal that reads all it draws, types keys and times what it sees.
# Peers are interleaved (the order turns every run) and medians quoted:
# the machine may be busy, so read ratios within one run, and CPU seconds
# rather than wall time.
#
# usage: bench/run.sh [-q] [-n RUNS] [-p "PEERS"] [-t "TESTS"] [-o FILE]
#   -q        quick look (about a minute): a tenth of the data, 1 run,
#             fewer probes (the agents' path keeps its million lines)
#   -n RUNS   runs of each measurement (default 3; -q: 1)
#   -p PEERS  among: tmux screen dvtm ptyvisor (default: all four)
#   -t TESTS  among: seq ansi idle loaded mem agents (default: all)
#   -o FILE   the summary (default bench/results/latest.md)
# PTYVISOR=path picks the binary (default build/ptyvisor).  Nothing is
# written outside a temporary directory, the summary and its raw figures.
set -u
root=$(cd "$(dirname "$0")/.." && pwd)
quick=0 runs="" peers="tmux screen dvtm ptyvisor"
tests="seq ansi idle loaded mem agents" out=$root/bench/results/latest.md
while getopts "qn:p:t:o:h" o; do
	case $o in
	q) quick=1 ;;
	n) runs=$OPTARG ;;
	p) peers=$OPTARG ;;
	t) tests=$OPTARG ;;
	o) out=$OPTARG ;;
	*) sed -n '2,/^set -u/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 2 ;;
	esac
done
pv=${PTYVISOR:-$root/build/ptyvisor}
[ -x "$pv" ] || { echo "run.sh: no $pv (build first, or set PTYVISOR)" >&2; exit 2; }
for p in $peers; do
	case $p in
	tmux|screen|dvtm) command -v "$p" >/dev/null ||
		{ echo "run.sh: $p is not installed (scripts/bootstrap deps)" >&2; exit 2; } ;;
	ptyvisor) ;;
	*) echo "run.sh: unknown peer $p" >&2; exit 2 ;;
	esac
done
if [ $quick = 1 ]; then
	runs=${runs:-1} seq_n=300000 ansi_lines=6700 probes=80 settle=500
else
	runs=${runs:-3} seq_n=3000000 ansi_lines=67000 probes=400 settle=1000
fi
mem_lines=10000 agent_n=1000000

T=$(mktemp -d "${TMPDIR:-/tmp}/pvbench.XXXXXX")
serve_pid=""
cleanup() {
	[ -n "$serve_pid" ] && kill "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# One clean environment for every peer: no user configuration, UTF-8.
export HOME=$T/home SCREENDIR=$T/screens SYSSCREENRC=/dev/null
export LC_ALL=C.UTF-8 LANG=C.UTF-8 SHELL=/bin/sh
export PTYVISOR_STATE_DIR=$T/state PTYVISOR_CONFIG=$T/config
unset TMUX TMUX_PANE STY WINDOW DVTM DVTM_WINDOW_ID PTYVISOR_SOCKET
mkdir -p "$HOME" "$SCREENDIR" "$PTYVISOR_CONFIG"
chmod 700 "$HOME" "$SCREENDIR"
W=$root/bench/work.sh
H=$T/outerterm
${CC:-cc} -O2 -o "$H" "$root/bench/outerterm.c" -lutil ||
	{ echo "run.sh: cannot build the outer terminal" >&2; exit 2; }
printf '#!/bin/sh\nPVB_MODE=flood exec %s\n' "$W" >"$T/flood"
chmod +x "$T/flood"
printf 'startup_message off\n' >"$T/screenrc"
printf 'set -g history-limit %s\n' $mem_lines >"$T/tmux.conf"
raw=$T/raw

# The dense colour/UTF-8/CJK text: 120-column lines of 256 and true
# colours, accents, box drawing and wide characters, ~175 bytes a line.
awk -v n=$ansi_lines 'BEGIN {
	split("日本語 中文字 한국어 漢字表 東京都 北京市", cjk, " ")
	split("café naïve über señor ÅÄÖ ø", lat, " ")
	s = 12345
	for (i = 1; i <= n; i++) {
		line = ""; w = 0
		while (w < 110) {
			s = (s * 1103515245 + 12345) % 2147483648
			k = s % 4
			if (k == 0) { line = line sprintf("\033[38;5;%dm%s ", s % 256, cjk[s % 6 + 1]); w += 7 }
			else if (k == 1) { line = line sprintf("\033[38;2;%d;%d;%dm%s ", s % 256, (s / 7) % 256, (s / 13) % 256, lat[s % 6 + 1]); w += 6 }
			else if (k == 2) { line = line sprintf("\033[1;48;5;%dm──┼──\033[0m ", s % 256); w += 6 }
			else { line = line sprintf("\033[3%dm%06d ", s % 8, s % 1000000); w += 7 }
		}
		print line "\033[0m"
	}
}' >"$T/ansi.txt"
export PVB_DATA=$T/ansi.txt

# peer_cmd PEER: the command that shows $W (mode from the environment)
# in PEER, in the array CMD; KEYS: outerterm steps after it is up.
peer_cmd() {
	tag=pvb$$x$RANDOM KEYS=()
	case $1 in
	tmux) CMD=(tmux -L "$tag" -f /dev/null new-session "$W") ;;
	screen) CMD=(screen -S "$tag" -c "$T/screenrc" "$W") ;;
	dvtm) CMD=(env SHELL="$W" dvtm "$W") ;;	# quits after $SHELL only
	ptyvisor) CMD=("$pv" --quit-when-done --no-socket --sandbox none -- "$W") ;;
	esac
}

# The same, with a second visible pane that floods; the echo pane has
# the focus.
peer_cmd_loaded() {
	tag=pvb$$x$RANDOM KEYS=()
	case $1 in
	tmux) CMD=(tmux -L "$tag" -f /dev/null new-session "$W" \; split-window -d "$T/flood") ;;
	screen) printf 'startup_message off\nscreen -t flood %s\nsplit\nfocus\nscreen -t echo %s\n' \
		"$T/flood" "$W" >"$T/screenrc.loaded"
		CMD=(screen -S "$tag" -c "$T/screenrc.loaded") ;;
	dvtm) CMD=(dvtm "$T/flood" "$W") ;;	# the last window has the focus
	ptyvisor) # C-g c opens $SHELL (the flood) in a new pane, C-g p goes back
		CMD=(env SHELL="$T/flood" "$pv" --quit-when-done --no-socket --sandbox none -- "$W")
		KEYS=(-k '\x07c' -d 300 -k '\x07p') ;;
	esac
}

# N sessions of the memory workload, each as wide as the outer terminal.
peer_cmd_mem() {
	local n=$1 k
	tag=pvb$$x$RANDOM KEYS=()
	case $2 in
	tmux) CMD=(tmux -L "$tag" -f "$T/tmux.conf" new-session "$W")
		for ((k = 1; k < n; k++)); do CMD+=(\; new-window "$W"); done ;;
	screen) { echo "startup_message off"; echo "defscrollback $mem_lines"
		for ((k = 0; k < n; k++)); do echo "screen $W"; done; } >"$T/screenrc.mem"
		CMD=(screen -S "$tag" -c "$T/screenrc.mem") ;;
	dvtm) CMD=(env SHELL="$W" dvtm -h $mem_lines)	# C-g m: one maximised window
		for ((k = 0; k < n; k++)); do CMD+=("$W"); done
		KEYS=(-d 300 -k '\x07m') ;;
	ptyvisor) # C-g z zooms the pane, C-g c opens another session ($SHELL)
		CMD=(env SHELL="$W" "$pv" --quit-when-done --no-socket --sandbox none -- "$W")
		KEYS=(-d 300 -k '\x07z')
		for ((k = 1; k < n; k++)); do KEYS+=(-k '\x07c' -d 150); done ;;
	esac
}

# record TEST PEER RUN "key=value ...": one line of the raw figures.
record() {
	echo "$1 $2 $3 $4" >>"$raw"
	printf '%-8s %-9s run %s: %s\n' "$1" "$2" "$3" "$4" >&2
}

# The peers in an order that turns with the run number.
order() {
	local -a p=($peers)
	local i n=${#p[@]}
	for ((i = 0; i < n; i++)); do echo "${p[(i + $1) % n]}"; done
}

run_throughput() {	# WORK PEER RUN
	peer_cmd "$2"
	rm -f "$T/times"
	record "$1" "$2" "$3" "$(PVB_MODE=$1 PVB_N=$seq_n PVB_TIMES=$T/times \
	    "$H" -t 600 -w "$T/times" -m PVB-END -e -- "${CMD[@]}" 2>&1 | tail -1)"
}

run_latency() {		# idle|loaded PEER RUN
	if [ "$1" = idle ]; then peer_cmd "$2"; else peer_cmd_loaded "$2"; fi
	record "$1" "$2" "$3" "$(PVB_MODE=lat "$H" -t 120 -r PVB-READY \
	    "${KEYS[@]}" -d $settle -l $probes -- "${CMD[@]}" 2>&1 | tail -1)"
}

run_memory() {		# SESSIONS PEER RUN
	peer_cmd_mem "$1" "$2"
	rm -rf "$T/mem"
	mkdir -p "$T/mem"
	record "mem$1" "$2" "$3" "$(PVB_MODE=mem PVB_N=$mem_lines PVB_DIR=$T/mem \
	    PVB_DELAY=0.3 "$H" -t 120 "${KEYS[@]}" -M "$T/mem:$1" -e -- \
	    "${CMD[@]}" 2>&1 | tail -1)"
}

# The agents' path: a `ptyvisor serve` of this run's own (private socket
# and state, approval never) runs `ptyvisor exec`; its CPU is counted.
start_serve() {
	"$pv" serve --socket "$T/serve.sock" --approval never 2>"$T/serve.log" &
	serve_pid=$!
	for _ in $(seq 1 100); do [ -S "$T/serve.sock" ] && return 0; sleep 0.05; done
	echo "run.sh: ptyvisor serve did not start:" >&2
	cat "$T/serve.log" >&2
	return 1
}

run_agents() {		# RUN
	local how
	for how in script run exec exec-text exec-raw; do
		case $how in
		script) CMD=(script -qec "seq 1 $agent_n" /dev/null) ;;
		run) CMD=("$pv" run -- seq 1 $agent_n) ;;
		exec) CMD=("$pv" exec --socket "$T/serve.sock" -- seq 1 $agent_n) ;;
		exec-text) CMD=("$pv" exec --text --socket "$T/serve.sock" -- seq 1 $agent_n) ;;
		exec-raw) CMD=("$pv" exec --raw --socket "$T/serve.sock" -- seq 1 $agent_n) ;;
		esac
		record agents "$how" "$1" "$("$H" -P -t 300 -s "$serve_pid" -- "${CMD[@]}" 2>&1 | tail -1)"
	done
}

has() { case " $tests " in *" $1 "*) return 0 ;; esac; return 1; }

load_start=$(cut -d' ' -f1-3 /proc/loadavg)
: >"$raw"
has agents && { start_serve || exit 1; }
for ((r = 1; r <= runs; r++)); do
	for w in seq ansi; do
		has $w || continue
		for p in $(order $r); do run_throughput $w "$p" $r; done
	done
	for l in idle loaded; do
		has $l || continue
		for p in $(order $r); do run_latency $l "$p" $r; done
	done
	if has mem; then
		for n in 1 10; do
			for p in $(order $r); do run_memory $n "$p" $r; done
		done
	fi
	has agents && run_agents $r
done

# med TEST PEER KEY: the median of KEY over the runs that succeeded, "-"
# if there were none, "failed" if none succeeded.  A run fails when
# what it waited for was not drawn, or (except the echo runs, ended by
# the outer terminal) the program did not exit with status 0.
med() {
	awk -v t="$1" -v p="$2" -v k="$3" '$1 == t && $2 == p {
		ok = !/timeout_waiting_for=/
		if (t != "idle" && t != "loaded" && !/ rc=0( |$)/) ok = 0
		if (!ok) { print "failed"; next }
		for (i = 4; i <= NF; i++) if (index($i, k "=") == 1)
			print substr($i, length(k) + 2) }' "$raw" |
	awk '$1 == "failed" { bad++; next } { good++; print }
		END { if (bad && !good) print "failed" }' | sort -g |
	awk '$1 == "failed" { print; exit } { v[NR] = $1 }
		END { if (NR == 0) print "-"
		else if (NR % 2) print v[(NR + 1) / 2]
		else printf "%.3f\n", (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

# ratio A B: A / B with two decimals, or "-".
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (a !~ /^[0-9.]+$/ || b !~ /^[0-9.]+$/ || b + 0 == 0) print "-"
		else printf "%.2fx\n", a / b }'
}

# row LABEL TEST KEY SCALE: one table row, every peer, ptyvisor / tmux.
row() {
	local line="| $1 |" p v pvv="-" tmv="-"
	for p in $peers; do
		v=$(med "$2" "$p" "$3")
		[ "$v" != "-" ] && [ "$v" != failed ] && v=$(awk -v v="$v" -v s="$4" 'BEGIN { printf "%.*f\n", (s == 1 ? 3 : 1), v * s }')
		line="$line $v |"
		[ "$p" = ptyvisor ] && pvv=$v
		[ "$p" = tmux ] && tmv=$v
	done
	echo "$line $(ratio "$pvv" "$tmv") |"
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -1)
machine="$cpu, $(nproc) cores, Linux $(uname -r), load average at start $load_start"
versions="ptyvisor $("$pv" --version 2>&1 | head -1 | awk '{print $NF}')"
for p in tmux screen dvtm; do
	case " $peers " in *" $p "*) ;; *) continue ;; esac
	case $p in
	tmux) versions="$versions, $(tmux -V)" ;;
	screen) versions="$versions, screen $(screen -v | awk '{print $3}')" ;;
	dvtm) versions="$versions, $(dvtm -v 2>&1 | head -1)" ;;
	esac
done
seq_mb=$(awk -v n=$seq_n 'BEGIN { for (i = 1; i <= n; i *= 10) { hi = (n < i * 10 - 1 ? n : i * 10 - 1); b += (hi - i + 1) * (length(i) + 1) } printf "%.1f", b / 1e6 }')
ansi_mb=$(awk -v b="$(wc -c <"$T/ansi.txt")" 'BEGIN { printf "%.1f", b / 1e6 }')
mode=full
[ $quick = 1 ] && mode="quick (-q)"

summary() {
	echo "# ptyvisor next to its peers"
	echo
	echo "$(date -u '+%Y-%m-%d %H:%M UTC'), $mode run, $runs run(s) of each, medians; 120x40 outer terminal."
	echo
	echo "Machine: $machine."
	echo
	echo "Versions: $versions."
	echo
	local head="|" sep="|" p
	for p in $peers; do head="$head $p |"; sep="$sep---|"; done
	if has seq || has ansi || has idle || has loaded || has mem; then
		echo "| measure $head ptyvisor / tmux |"
		echo "|---$sep---|"
		if has seq; then
			row "\`seq 1 $seq_n\` ($seq_mb MB): multiplexer CPU s" seq mux_cpu_s 1
			row "\`seq 1 $seq_n\`: wall s until drawn" seq wall_s 1
		fi
		if has ansi; then
			row "colour/UTF-8/CJK ($ansi_mb MB): multiplexer CPU s" ansi mux_cpu_s 1
			row "colour/UTF-8/CJK: wall s until drawn" ansi wall_s 1
		fi
		if has idle; then
			row "echo, idle: p50 ms" idle lat_p50_ms 1
			row "echo, idle: p99 ms" idle lat_p99_ms 1
		fi
		if has loaded; then
			row "echo while a visible pane floods: p50 ms" loaded lat_p50_ms 1
			row "echo while a visible pane floods: p99 ms" loaded lat_p99_ms 1
		fi
		if has mem; then
			row "RSS, 1 session x $mem_lines lines: MB" mem1 rss_kb 0.001024
			row "RSS, 10 sessions x $mem_lines lines: MB" mem10 rss_kb 0.001024
		fi
		echo
	fi
	if has agents; then
		local s sc
		sc=$(med agents script wall_s)
		echo "| \`seq 1 $agent_n\`, output to a pipe | wall s | CPU s (with the server's) | wall / \`script\` |"
		echo "|---|---|---|---|"
		for s in script run exec exec-text exec-raw; do
			case $s in
			script) l="\`script -qec 'seq 1 $agent_n' /dev/null\`" ;;
			run) l="\`ptyvisor run -- seq ...\`" ;;
			exec) l="\`ptyvisor exec -- seq ...\` (pipes, as ptyvisor-sh)" ;;
			exec-text) l="\`ptyvisor exec --text -- seq ...\`" ;;
			exec-raw) l="\`ptyvisor exec --raw -- seq ...\` (the PTY's bytes)" ;;
			esac
			echo "| $l | $(med agents $s wall_s) | $(med agents $s tree_cpu_s) | $(ratio "$(med agents $s wall_s)" "$sc") |"
		done
		echo
	fi
	echo "Multiplexer CPU: the whole process tree under the outer terminal (a"
	echo "daemonised server included) minus the workload's own. Echo: one key"
	echo "every 20 ms into \`cat\` on a raw terminal, timed until drawn. RSS: the"
	echo "largest process of the tree once every session has its scrollback."
	echo "\"failed\": no run of it succeeded."
	awk '{ bad = /timeout_waiting_for=/
		if ($1 != "idle" && $1 != "loaded" && !/ rc=0( |$)/) bad = 1
		if (bad) { rc = "no exit status"; if (match($0, / rc=[0-9]+/))
			rc = "exit status " substr($0, RSTART + 4, RLENGTH - 4)
			if (/timeout_waiting_for=/) rc = "timed out"
			printf "%s%s %s run %s (%s)", n++ ? ", " : "\nLeft out of the medians: ", $1, $2, $3, rc } }
		END { if (n) print "." }' "$raw"
}

mkdir -p "$(dirname "$out")"
summary | tee "$out"
{
	echo
	echo "<details><summary>raw figures</summary>"
	echo
	echo '```'
	cat "$raw"
	echo '```'
	echo "</details>"
} >>"$out"
echo "run.sh: wrote $out" >&2
