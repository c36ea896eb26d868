EXTRA_DIST += bench/sandbox-spawn.sh
