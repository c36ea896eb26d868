#!/usr/bin/env python3
"""cellcmp.py - compare a screen printed by tests/render/screen-dump (one
JSON array of glyphs per row) with one printed by `tmux capture-pane -p -e
-N` (rows of characters with SGR sequences), each followed by a line
"cursor ROW,COL".

usage: cellcmp.py OURS THEIRS
       cellcmp.py --dir DIR NAME...
Exit 0 when every row shows the same characters with the same colours and
attributes and the cursor is at the same place; else print each difference
(row, column, what each side shows) and exit 1.  With --dir, compare
DIR/NAME.ours with DIR/NAME.tmux for each NAME (one interpreter for them
all), write the differences to DIR/NAME.diff and print "NAME STATUS".

Cells are compared as a person sees them: a space shows only its
background, reverse video and underline, so its foreground, bold, italic,
blink and strike-through are not compared.  Trailing spaces are not
compared unless reversed or underlined: capture-pane leaves out erased cells
at the end of a row even when they have a background, so a test that checks
an erased background puts a character after it.  tmux puts the cursor one
past the last column while a wrap is pending, libvterm on the last column:
that is taken as the same place.
"""
import json
import re
import sys
import unicodedata

SGR = re.compile(r"\x1b\[([0-9;:]*)m")
FLAGS = ("bold", "dim", "italic", "underline", "blink", "reverse", "hidden",
         "strike")


def default_attrs():
    return {"fg": "default", "bg": "default", **{f: 0 for f in FLAGS}}


def color(params, i):
    """Parse an extended colour at params[i] (the 38/48); return (colour, next)."""
    p = params[i]
    if ":" in p:
        sub = p.split(":")
        if len(sub) >= 3 and sub[1] == "5":
            return "idx:%d" % int(sub[2]), i + 1
        if len(sub) >= 5 and sub[1] == "2":
            rgb = [int(x or 0) for x in sub[-3:]]
            return "rgb:%02x%02x%02x" % tuple(rgb), i + 1
        return "default", i + 1
    if i + 2 < len(params) + 1 and i + 1 < len(params) and params[i + 1] == "5":
        return "idx:%d" % int(params[i + 2]), i + 3
    if i + 1 < len(params) and params[i + 1] == "2":
        rgb = [int(x or 0) for x in params[i + 2:i + 5]]
        return "rgb:%02x%02x%02x" % tuple(rgb), i + 5
    return "default", len(params)


def apply_sgr(a, arg):
    params = arg.split(";") if arg else ["0"]
    i = 0
    while i < len(params):
        p = params[i]
        head = p.split(":")[0]
        n = int(head) if head else 0
        if n == 0:
            a.clear()
            a.update(default_attrs())
        elif n == 1:
            a["bold"] = 1
        elif n == 2:
            a["dim"] = 1
        elif n == 3:
            a["italic"] = 1
        elif n == 4:
            sub = p.split(":")
            a["underline"] = 1 if len(sub) == 1 else min(int(sub[1] or 0), 2)
        elif n == 5:
            a["blink"] = 1
        elif n == 7:
            a["reverse"] = 1
        elif n == 8:
            a["hidden"] = 1
        elif n == 9:
            a["strike"] = 1
        elif n == 21:
            a["underline"] = 2
        elif n == 22:
            a["bold"] = a["dim"] = 0
        elif n == 23:
            a["italic"] = 0
        elif n == 24:
            a["underline"] = 0
        elif n == 25:
            a["blink"] = 0
        elif n == 27:
            a["reverse"] = 0
        elif n == 28:
            a["hidden"] = 0
        elif n == 29:
            a["strike"] = 0
        elif 30 <= n <= 37:
            a["fg"] = "idx:%d" % (n - 30)
        elif n == 38:
            a["fg"], i = color(params, i)
            continue
        elif n == 39:
            a["fg"] = "default"
        elif 40 <= n <= 47:
            a["bg"] = "idx:%d" % (n - 40)
        elif n == 48:
            a["bg"], i = color(params, i)
            continue
        elif n == 49:
            a["bg"] = "default"
        elif 90 <= n <= 97:
            a["fg"] = "idx:%d" % (n - 90 + 8)
        elif 100 <= n <= 107:
            a["bg"] = "idx:%d" % (n - 100 + 8)
        i += 1


def joins(ch):
    """True for a character drawn in the previous one's cell."""
    return (unicodedata.combining(ch) != 0 or
            unicodedata.category(ch) in ("Mn", "Me") or ch == "\u200d")


def visible(text, a):
    """The attributes that show on this glyph."""
    if text.strip() == "":
        return (a["bg"], a["reverse"], a["underline"])
    return tuple(a[k] for k in ("fg", "bg") + FLAGS)


# screen-dump's flag bits (term/cell.h) by name.
CELL_FLAGS = {"bold": 0x1, "underline": 0x2, "underline2": 0x4,
              "italic": 0x8, "blink": 0x10, "reverse": 0x20, "strike": 0x40,
              "hidden": 0x80}


def strip(glyphs):
    """The row as compared: trailing plain spaces gone, visible attributes."""
    while glyphs and (glyphs[-1][0] == " " and
                      visible(" ", glyphs[-1][1])[1:] == (0, 0)):
        glyphs.pop()
    return [(t, visible(t, at)) for t, at in glyphs]


def from_dump(glyphs):
    """screen-dump's [text, fg, bg, flags] glyphs as the SGR parser sees them."""
    out = []
    for text, fg, bg, flags in glyphs:
        a = default_attrs()
        a["fg"], a["bg"] = fg, bg
        for name in ("bold", "italic", "blink", "reverse", "strike",
                     "hidden"):
            a[name] = 1 if flags & CELL_FLAGS[name] else 0
        a["underline"] = (2 if flags & CELL_FLAGS["underline2"] else
                          1 if flags & CELL_FLAGS["underline"] else 0)
        out.append([text, a])
    return out


def parse(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        lines = f.read().split("\n")
    cursor = None
    rows = []
    a = default_attrs()     # capture-pane carries attributes across rows
    for line in lines:
        if line.startswith("cursor "):
            cursor = line[7:].split()
            if len(cursor) > 1:     # tmux: "ROW,COL WIDTH"
                row, col = cursor[0].split(",")
                col = min(int(col), int(cursor[1]) - 1)
                cursor = ["%s,%d" % (row, col)]
            cursor = cursor[0]
            continue
        if line.startswith("["):
            glyphs = from_dump(json.loads(line))
            rows.append(strip(glyphs))
            continue
        glyphs = []
        pos = 0
        for m in list(SGR.finditer(line)) + [None]:
            end = m.start() if m else len(line)
            for ch in line[pos:end]:
                if glyphs and joins(ch):
                    glyphs[-1][0] += ch
                else:
                    glyphs.append([ch, dict(a)])
            if m:
                apply_sgr(a, m.group(1))
                pos = m.end()
        rows.append(strip(glyphs))
    while rows and not rows[-1]:
        rows.pop()
    return rows, cursor


def describe(g):
    if g is None:
        return "nothing"
    text, at = g
    return "%r %s" % (text, "/".join(str(x) for x in at))


def differences(ours_path, theirs_path):
    ours, ocur = parse(ours_path)
    theirs, tcur = parse(theirs_path)
    diffs = []
    for r in range(max(len(ours), len(theirs))):
        a = ours[r] if r < len(ours) else []
        b = theirs[r] if r < len(theirs) else []
        if a == b:
            continue
        ta = "".join(t for t, _ in a)
        tb = "".join(t for t, _ in b)
        if ta != tb:
            diffs.append("row %d text: ours %r, tmux %r" % (r, ta, tb))
            continue
        for i in range(max(len(a), len(b))):
            ga = a[i] if i < len(a) else None
            gb = b[i] if i < len(b) else None
            if ga != gb:
                diffs.append("row %d glyph %d: ours %s, tmux %s" %
                             (r, i, describe(ga), describe(gb)))
                break
    if ocur != tcur:
        diffs.append("cursor: ours %s, tmux %s" % (ocur, tcur))
    return diffs[:20]


def main():
    if sys.argv[1] == "--dir":
        for name in sys.argv[3:]:
            base = "%s/%s" % (sys.argv[2], name)
            try:
                diffs = differences(base + ".ours", base + ".tmux")
            except (OSError, ValueError) as e:
                diffs = ["cannot compare: %s" % e]
            with open(base + ".diff", "w") as f:
                f.write("".join(d + "\n" for d in diffs))
            print(name, 1 if diffs else 0)
        return 0
    diffs = differences(sys.argv[1], sys.argv[2])
    for d in diffs:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
