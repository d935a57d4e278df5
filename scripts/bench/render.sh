#!/usr/bin/env bash
# scripts/bench/render.sh: what fetch --render costs, in two parts.
#  1. Rendering: the pages of the render test web that need scripts
#     (internal/render/testweb, N of each kind, spread over 20 host names,
#     --delay 0) fetched with --render always and 1, 2 and 4 tabs: pages/s,
#     and peak RSS of fetch with every Chromium process under it (sampled
#     every 100 ms).
#     The records are judged against the test web's truth (renderweb
#     -check): how much of the script-built content their HTML holds.
#  2. auto on the whole test web (all its kinds, the never-settling page
#     too; 2 tabs): which pages it rendered, against the truth.
#  3. auto on a static web: the 20,000 static pages of ~20 KB of
#     scripts/bench/fetch.sh, fetched with --render never and --render auto
#     (RUNS interleaved runs each, the best reported): auto must cost nearly
#     nothing where nothing needs rendering.
# Prints markdown rows "| stage | metric | value | target |".
# Env: N (10), TABS ("1 2 4"), PAGES (20000), RUNS (3), CHROMIUM.
set -euo pipefail
cd "$(dirname "$0")/../.."
n=${N:-10} pages=${PAGES:-20000} runs=${RUNS:-3}
work=$(mktemp -d)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT
chromium=()
[ -n "${CHROMIUM:-}" ] && chromium=(--chromium "$CHROMIUM")

mkdir -p bin
go build -trimpath -o bin/fetch ./cmd/fetch
go build -trimpath -o "$work/renderweb" ./scripts/bench/renderweb
(cd scripts/bench/colly && go build -trimpath -o "$work/server" ./server)

# treerss PID: memory (KiB) of PID and all its descendants: the sum of
# their PSS (proportional set size: a page shared by k processes counts
# 1/k in each), so that the libraries and shared memory Chromium's
# processes share are counted once; the sum of their RSS would count them
# once per process.
treerss() {
  local p t=0 v
  for p in $(ps -e -o pid=,ppid= | awk -v root="$1" '
      { pp[$1] = $2 } END { for (p in pp) { q = p; while (q != "" && q != 0 && q != root) q = pp[q]; if (q == root) print p } }'); do
    v=$(awk '/^Pss:/ { print $2 }' "/proc/$p/smaps_rollup" 2>/dev/null || true)
    t=$((t + ${v:-0}))
  done
  echo "$t"
}

# measure NAME URLS CMD...: runs CMD < URLS, samples its tree's memory; appends
# "secs peak_pss_kb records rendered errors cpu_secs" to $work/NAME.runs (CPU:
# user+sys of fetch and the Chromium processes it waited for)
measure() {
  local name=$1 urls=$2; shift 2
  local t0 t1 peak=0 r
  t0=$(date +%s.%N)
  /usr/bin/time -f '%U %S' -o "$work/$name.time" "$@" <"$urls" >"$work/$name.out" 2>"$work/$name.err" &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    r=$(treerss "$pid"); [ "$r" -gt "$peak" ] && peak=$r
    sleep 0.1
  done
  wait "$pid"
  t1=$(date +%s.%N)
  echo "$t0 $t1 $peak $(wc -l <"$work/$name.out") $(grep -c '"rendered":true' "$work/$name.out" || true) $(grep -c '"error":' "$work/$name.out" || true) $(tail -1 "$work/$name.time")" |
    awk '{ printf "%.3f %d %d %d %d %.2f\n", $2 - $1, $3, $4, $5, $6, $7 + $8 }' >>"$work/$name.runs"
  tail -2 "$work/$name.err" >&2
}

# 1. Rendering throughput and memory.
"$work/renderweb" -n "$n" -urls "$work/script.urls" >"$work/rw.addr" 2>"$work/rw.log" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/rw.addr" ] && break; sleep 0.1; done
rport=$(head -1 "$work/rw.addr"); rport=${rport##*:}
npages=$(wc -l <"$work/script.urls")
for tabs in ${TABS:-1 2 4}; do
  measure "tabs$tabs" "$work/script.urls" bin/fetch --render always --render-tabs "$tabs" ${chromium[@]+"${chromium[@]}"} \
    --delay 0 --per-host 4 --resolve "*:$rport:127.0.0.1" --progress off
  read -r secs rss recs rendered errs cpu <"$work/tabs$tabs.runs"
  echo "| fetch --render always | $tabs tabs: rendered pages/s ($npages script-built pages, $rendered rendered, $errs errors; load $(cut -d' ' -f1 /proc/loadavg)) | $(awk -v n="$rendered" -v s="$secs" 'BEGIN { printf "%.2f", n / s }') | — |"
  echo "| fetch --render always | $tabs tabs: CPU per rendered page, Chromium included | $(awk -v n="$rendered" -v c="$cpu" 'BEGIN { printf "%.0f ms", c * 1000 / n }') | — |"
  echo "| fetch --render always | $tabs tabs: peak memory (PSS), Chromium included | $((rss / 1024)) MB | ≤ 1536 MB at 4 tabs |"
  "$work/renderweb" -n "$n" -check "$work/tabs$tabs.out" | grep markers | sed "s/^| script-built markers found |/| fetch --render always | $tabs tabs: script-built content found (markers) |/; s/|\$/| ≥ 98% |/"
done

# 2. auto on the whole test web.
"$work/renderweb" -n "$n" -kinds all -urls "$work/all.urls" >"$work/rw2.addr" 2>"$work/rw2.log" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/rw2.addr" ] && break; sleep 0.1; done
aport=$(head -1 "$work/rw2.addr"); aport=${aport##*:}
measure auto-web "$work/all.urls" bin/fetch --render auto --render-tabs 2 --render-timeout 10s ${chromium[@]+"${chromium[@]}"} \
  --delay 0 --per-host 4 --resolve "*:$aport:127.0.0.1" --progress off
"$work/renderweb" -n "$n" -check "$work/auto-web.out" | sed 's/^| /| fetch --render auto | test web: /; s/|$/| — |/'
ticker=$(grep '/ticker/0"' "$work/auto-web.out" | grep -o '"render_ms":[0-9]*,"render_cut":true' || echo "not cut")
echo "| fetch --render auto | the never-settling page (--render-timeout 10s) | $ticker | cut within the cap |"

# 3. auto on a static web.
"$work/server" >"$work/addr" 2>"$work/server.log" &
pids+=($!)
for _ in $(seq 50); do [ -s "$work/addr" ] && break; sleep 0.1; done
port=$(head -1 "$work/addr"); port=${port##*:}
awk -v n="$pages" -v p="$port" 'BEGIN { for (i = 0; i < n; i++) printf "http://site%d.bench.test:%s/page/%d\n", i % 200, p, i }' >"$work/static.urls"
for _ in $(seq "$runs"); do
  for mode in never auto; do
    measure "static-$mode" "$work/static.urls" bin/fetch --render "$mode" ${chromium[@]+"${chromium[@]}"} --delay 0 --per-host 8 -c 128 \
      --resolve "*:$port:127.0.0.1" --progress off
  done
done
for mode in never auto; do
  echo "static-$mode runs (secs peak_pss_kb records rendered errors cpu_secs):" >&2
  cat "$work/static-$mode.runs" >&2
  read -r secs rss recs rendered errs cpu < <(sort -n "$work/static-$mode.runs" | head -1)
  echo "$recs $secs" | awk '{ printf "%.0f\n", $1 / $2 }' >"$work/$mode.rate"
  # CPU per page: the least of the runs (the steadiest figure on a shared machine)
  sort -k6,6n "$work/static-$mode.runs" | head -1 | awk -v n="$pages" '{ printf "%.0f\n", $6 * 1e6 / n }' >"$work/$mode.cpu"
  echo "| fetch --render $mode | static web: pages/s ($pages × 20 KB; best of $runs; $rendered rendered) | $(cat "$work/$mode.rate") | — |"
  echo "| fetch --render $mode | static web: CPU per page (least of $runs) | $(cat "$work/$mode.cpu") µs | — |"
done
echo "| fetch --render auto | static web: speed of auto / never (best runs) | $(awk -v a="$(cat "$work/auto.rate")" -v b="$(cat "$work/never.rate")" 'BEGIN { printf "%.2f", a / b }')× | ≥ 0.9× |"
echo "| fetch --render auto | static web: CPU per page of never / auto | $(awk -v a="$(cat "$work/auto.cpu")" -v b="$(cat "$work/never.cpu")" 'BEGIN { printf "%.2f", b / a }')× | — |"
