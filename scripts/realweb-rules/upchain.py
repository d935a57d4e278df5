#!/usr/bin/env python3
"""upchain.py DIR TOP.html [NAME] — the pages of one chapter of a manual split into one HTML
file per node (Texinfo's `makeinfo --html`, DocBook's chunked HTML), as a path list for
examples/topics/realweb/truth.yaml.

A page belongs to the chapter when its chain of "up" links (Texinfo: <a … rel="up">, DocBook:
<link rel="up">) reaches TOP.html, the chapter's first page; TOP.html itself is included.
Pages that only redirect (<meta http-equiv="Refresh">, Texinfo's XREF*.html stubs) are left
out: they are not part of the chapter's text. Prints a YAML flow list of paths, /FILE.html,
PREFIX-ed with the directory's path on its host (--prefix, default "/"), sorted.

    python3 scripts/realweb-rules/upchain.py \
      out/realweb/pkgs/octave-doc/usr/share/doc/octave/octave.html Plotting.html \
      --prefix /octave.html/
"""
import argparse
import html
import os
import re
import sys

UP = [
    re.compile(r'<a\s[^>]*rel="up"[^>]*>', re.I),
    re.compile(r'<link\s[^>]*rel="up"[^>]*>', re.I),
]
HREF = re.compile(r'href="([^"#]*)', re.I)
REFRESH = re.compile(r'<meta\s[^>]*http-equiv="refresh"', re.I)


def up_link(text):
    for pat in UP:
        m = pat.search(text)
        if m:
            h = HREF.search(m.group(0))
            if h and h.group(1):
                return html.unescape(h.group(1))
    return None


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dir")
    ap.add_argument("top")
    ap.add_argument("--prefix", default="/")
    a = ap.parse_args()
    up = {}
    for name in os.listdir(a.dir):
        if not name.endswith(".html"):
            continue
        with open(os.path.join(a.dir, name), encoding="utf-8", errors="replace") as f:
            text = f.read()
        if REFRESH.search(text):
            continue
        up[name] = up_link(text)
    if a.top not in up:
        sys.exit(f"upchain.py: {a.top} is not a page of {a.dir}")
    chapter = []
    for name in up:
        seen, n = set(), name
        while n is not None and n not in seen:
            if n == a.top:
                chapter.append(name)
                break
            seen.add(n)
            n = up.get(n)
    paths = sorted(a.prefix + n for n in chapter)
    print(f"# {len(paths)} pages: the chapter of {a.top} (upchain.py)")
    print("paths: [")
    line = " "
    for p in paths:
        item = f" {p},"
        if len(line) + len(item) > 100:
            print(line)
            line = " "
        line += item
    print(line.rstrip(","))
    print("]")


if __name__ == "__main__":
    main()
