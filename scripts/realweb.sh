#!/usr/bin/env bash
# realweb.sh [DIR] — build a real web to crawl offline: eight Debian documentation packages, one
# host each, and a portal page linking them, served by `simweb mirror serve`.
#
#   DIR/debs/          the .deb files (apt-get download; kept, so re-runs download nothing)
#   DIR/pkgs/PKG/      each package unpacked (dpkg -x; no root needed)
#   DIR/portal/        the portal host's pages: index.html links every package's doc root
#   DIR/sources.txt    the mirror: one HOST=DIR line per host (simweb mirror --sources)
#   DIR/seeds.txt      the portal URL, the crawl's seed
#   DIR/truth.jsonl.zst  the truth (simweb mirror truth) for the topics of
#                      examples/topics/realweb/truth.yaml, when bin/simweb exists
#
# Hosts (reserved .test names, RFC 2606): portal.docs.test and PKG.docs.test for each package.
# The pages' own links to other sites (www.gimp.org, httpd.apache.org, …) stay as they are:
# the mirror does not have those hosts, so they answer as unreachable.
#
# DIR defaults to out/realweb. Idempotent: run it again to check or repair; nothing is
# downloaded or unpacked twice. Needs apt-get, dpkg-deb and `apt-get update` done once.
# Environment: PACKAGES (the eight below), BIN (bin), RULES (examples/topics/realweb/truth.yaml).
set -euo pipefail
cd "$(dirname "$0")/.."
dir=${1:-out/realweb}
BIN=${BIN:-bin}
RULES=${RULES:-examples/topics/realweb/truth.yaml}
PACKAGES=${PACKAGES:-gimp-help-zh-cn kicad-doc-zh linuxcnc-doc-zh-cn debian-edu-doc-zh-cn apache2-doc git-doc openjdk-17-doc octave-doc}

# The directory of each package that is served as its host's root.
docroot() {
  case $1 in
    gimp-help-zh-cn) echo usr/share/gimp/2.0/help/zh_CN ;;
    kicad-doc-zh) echo usr/share/doc/kicad/help/zh ;;
    linuxcnc-doc-zh-cn) echo usr/share/doc/linuxcnc ;;
    debian-edu-doc-zh-cn) echo usr/share/doc/debian-edu-doc-zh-cn ;;
    apache2-doc) echo usr/share/doc/apache2-doc/manual ;;
    git-doc) echo usr/share/doc/git-doc ;;
    openjdk-17-doc) echo usr/share/doc/openjdk-17-jre-headless/api ;;
    octave-doc) echo usr/share/doc/octave ;;
    *) echo usr/share/doc/"$1" ;; # another package: its /usr/share/doc directory
  esac
}

for c in apt-get apt-cache dpkg-deb; do
  command -v "$c" >/dev/null || { echo "realweb.sh: $c not found (a Debian or Ubuntu system is needed)" >&2; exit 1; }
done
mkdir -p "$dir/debs" "$dir/pkgs" "$dir/portal"

for p in $PACKAGES; do
  if ! ls "$dir/debs/${p}"_*.deb >/dev/null 2>&1; then
    if ! apt-cache show "$p" >/dev/null 2>&1; then
      echo "realweb.sh: package $p is unknown to apt: run apt-get update, or set PACKAGES" >&2
      exit 1
    fi
    echo "realweb.sh: downloading $p" >&2
    (cd "$dir/debs" && apt-get download -q "$p" 2>&1 | grep -v '^W: Download is performed unsandboxed' >&2) || true
    ls "$dir/debs/${p}"_*.deb >/dev/null 2>&1 || { echo "realweb.sh: apt-get download $p failed" >&2; exit 1; }
  fi
  deb=$(ls "$dir/debs/${p}"_*.deb | sort | tail -n 1)
  if [ "$(cat "$dir/pkgs/$p/.deb" 2>/dev/null)" != "$(basename "$deb")" ]; then
    rm -rf "$dir/pkgs/$p"
    mkdir -p "$dir/pkgs/$p"
    dpkg-deb -x "$deb" "$dir/pkgs/$p"
    basename "$deb" >"$dir/pkgs/$p/.deb"
  fi
  [ -d "$dir/pkgs/$p/$(docroot "$p")" ] || { echo "realweb.sh: $p has no $(docroot "$p")" >&2; exit 1; }
done

# The portal and the sources file.
{
  echo '<!DOCTYPE html>'
  echo '<html lang="zh-CN"><head><meta charset="utf-8"><title>文档门户 Documentation portal</title></head>'
  echo '<body><h1>文档门户 Documentation portal</h1>'
  echo '<p>Manuals of free software, mirrored from Debian packages. 自由软件手册。</p><ul>'
} >"$dir/portal/index.html.tmp"
{
  echo "# simweb mirror --sources: one host per line (written by scripts/realweb.sh)"
  echo "portal.docs.test=portal"
} >"$dir/sources.txt.tmp"
for p in $PACKAGES; do
  deb=$(ls "$dir/debs/${p}"_*.deb | sort | tail -n 1)
  desc=$(dpkg-deb -f "$deb" Description | sed -n 1p | sed 's/&/\&amp;/g; s/</\&lt;/g; s/>/\&gt;/g')
  version=$(dpkg-deb -f "$deb" Version)
  echo "<li><a href=\"http://$p.docs.test/\">$desc</a> ($p $version)</li>" >>"$dir/portal/index.html.tmp"
  echo "$p.docs.test=pkgs/$p/$(docroot "$p")" >>"$dir/sources.txt.tmp"
done
echo '</ul></body></html>' >>"$dir/portal/index.html.tmp"
mv "$dir/portal/index.html.tmp" "$dir/portal/index.html"
mv "$dir/sources.txt.tmp" "$dir/sources.txt"
echo "http://portal.docs.test/" >"$dir/seeds.txt"

echo "realweb.sh: the web in $dir (serve it with: $BIN/simweb mirror serve --sources $dir/sources.txt)" >&2
while IFS='=' read -r host root; do
  case $host in '#'*|'') continue ;; esac
  n=$(find -L "$dir/$root" -type f \( -name '*.html' -o -name '*.htm' \) 2>/dev/null | wc -l)
  all=$(find -L "$dir/$root" -type f 2>/dev/null | wc -l)
  printf '  http://%-32s %6d HTML files, %6d files  %s\n' "$host/" "$n" "$all" "$root" >&2
done <"$dir/sources.txt"

if [ -x "$BIN/simweb" ] && [ -f "$RULES" ]; then
  "$BIN/simweb" mirror truth --sources "$dir/sources.txt" --portal http://portal.docs.test/ \
    --rules "$RULES" -o "$dir/truth.jsonl.zst"
  echo "realweb.sh: truth in $dir/truth.jsonl.zst" >&2
else
  echo "realweb.sh: no truth written ($BIN/simweb or $RULES missing: run make build)" >&2
fi
