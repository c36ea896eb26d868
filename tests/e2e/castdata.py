#!/usr/bin/env python3
"""Print the concatenated data of the events of one type in an asciicast v2
file, exactly as bytes (UTF-8), or with --count the number of such events,
or with --marker the data of the last "m" event."""
import json
import sys


def main():
    args = sys.argv[1:]
    kind = "o"
    mode = "data"
    if args and args[0] in ("--count", "--marker", "--header"):
        mode = args.pop(0)[2:]
    if len(args) == 2:
        kind = args.pop(1)
    with open(args[0], encoding="utf-8") as f:
        header = json.loads(f.readline())
        events = [json.loads(line) for line in f if line.strip()]
    if mode == "header":
        print(json.dumps(header, sort_keys=True))
    elif mode == "count":
        print(sum(1 for e in events if e[1] == kind))
    elif mode == "marker":
        print([e[2] for e in events if e[1] == "m"][-1])
    else:
        out = "".join(e[2] for e in events if e[1] == kind)
        sys.stdout.buffer.write(out.encode("utf-8"))


main()
