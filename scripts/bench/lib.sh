# scripts/bench/lib.sh: the start-up the bench scripts share, sourced after they set bin (the
# directory of the commands they built):
#
#   . scripts/bench/lib.sh
#   trap simweb_stop EXIT
#   simweb_start "$dir" serve -q --seed 1 --addr 127.0.0.1:0    # or: mirror serve -q --sources …
#   … fetch --proxy "$proxy" …
#   simweb_stop
#
# simweb_start DIR ARGS… stops the server it started before, if any, runs "$bin/simweb" ARGS…
# in the background with its hello line (JSON: addr, proxy) in DIR/hello.json and its stderr in
# DIR/simweb.log, waits up to 10 s for the hello line, and sets server (the pid), addr and
# proxy. A server that does not start fails it (status 1, under set -e the script's end), with
# a message that names the log. simweb_stop ends the server and waits for it.

server=
simweb_start() {
  local dir=$1
  shift
  simweb_stop
  "$bin/simweb" "$@" >"$dir/hello.json" 2>"$dir/simweb.log" &
  server=$!
  for _ in $(seq 200); do
    [ -s "$dir/hello.json" ] && break
    kill -0 "$server" 2>/dev/null || break
    sleep 0.05
  done
  addr=$(sed -n 's/.*"addr":"\([^"]*\)".*/\1/p' "$dir/hello.json")
  proxy=$(sed -n 's/.*"proxy":"\([^"]*\)".*/\1/p' "$dir/hello.json")
  if [ -z "$proxy" ]; then
    echo "$(basename "$0"): simweb $1 did not start (see $dir/simweb.log)" >&2
    simweb_stop
    return 1
  fi
}

simweb_stop() {
  [ -z "$server" ] || { kill "$server" 2>/dev/null; wait "$server" 2>/dev/null || true; server=; }
}
