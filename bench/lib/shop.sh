# Shared by the bench scripts that need a running shop for a moment: build it, start it on a free
# port in a temporary folder, fetch its OpenAPI description, stop it. Source it from the repository
# root (after `cd "$(dirname "$0")/.."`); it sets no shell options of its own.
#
#   shop_build                    ./mvnw -q -pl shop -am package -DskipTests
#   shop_start                    starts shop/target/shop.jar; sets SHOP_PID, SHOP_PORT, SHOP_URL,
#                                 SHOP_DIR (its working folder, with data/admin-token) and SHOP_ADMIN
#   shop_fetch_spec FILE          writes $SHOP_URL/v3/api-docs, pretty-printed, into FILE
#   shop_stop                     stops it and removes SHOP_DIR (SHOP_KEEP=1 keeps the folder)
#
# shop_start installs an EXIT trap that calls shop_stop, so no shop outlives the script, whatever
# way it ends (set -e, an error, Ctrl-C). A script with an EXIT trap of its own calls shop_stop there.

SHOP_PID=
SHOP_DIR=

shop_build() {
  ./mvnw -q -pl shop -am package -DskipTests
}

# A port nobody listens on now: the kernel picks one for a socket bound to port 0.
shop_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])' 2>/dev/null \
    || echo $((20000 + RANDOM % 20000))
}

shop_start() {
  local jar
  jar="$(pwd)/shop/target/shop.jar"
  [ -f "$jar" ] || { echo "no $jar: build the shop first" >&2; return 1; }
  SHOP_DIR=$(mktemp -d "${TMPDIR:-/tmp}/once-shop.XXXXXX")
  SHOP_PORT=${SHOP_PORT:-$(shop_free_port)}
  SHOP_URL=http://localhost:$SHOP_PORT
  trap shop_stop EXIT
  trap 'exit 130' INT TERM
  # The shop writes ./data (embedded PostgreSQL, the generated admin token) into its working folder.
  (cd "$SHOP_DIR" && exec java -Xmx512m -jar "$jar" --server.port="$SHOP_PORT" --logging.level.root=WARN \
    > "$SHOP_DIR/shop.log" 2>&1) &
  SHOP_PID=$!
  local i
  for i in $(seq 1 240); do
    if curl -sf "$SHOP_URL/actuator/health" >/dev/null 2>&1; then
      SHOP_ADMIN=$(cat "$SHOP_DIR/data/admin-token")
      echo "shop up on $SHOP_URL (pid $SHOP_PID, folder $SHOP_DIR)" >&2
      return 0
    fi
    if ! kill -0 "$SHOP_PID" 2>/dev/null; then
      echo "the shop stopped while starting; its log:" >&2
      tail -40 "$SHOP_DIR/shop.log" >&2
      return 1
    fi
    sleep 0.5
  done
  echo "the shop did not answer $SHOP_URL/actuator/health within 120 s; its log:" >&2
  tail -40 "$SHOP_DIR/shop.log" >&2
  return 1
}

shop_fetch_spec() {
  local out=$1
  mkdir -p "$(dirname "$out")"
  curl -sf "$SHOP_URL/v3/api-docs" -o "$out.raw"
  # Pretty-printed, so the line numbers in the linters' reports point somewhere readable.
  if command -v python3 >/dev/null; then
    python3 -m json.tool "$out.raw" > "$out" && rm -f "$out.raw"
  else
    mv "$out.raw" "$out"
  fi
  echo "OpenAPI description: $out" >&2
}

shop_stop() {
  if [ -n "${SHOP_PID:-}" ]; then
    # SIGTERM: a graceful stop, which also stops the embedded PostgreSQL.
    kill "$SHOP_PID" 2>/dev/null || true
    wait "$SHOP_PID" 2>/dev/null || true
    SHOP_PID=
  fi
  if [ -n "${SHOP_DIR:-}" ] && [ -z "${SHOP_KEEP:-}" ]; then
    rm -rf "$SHOP_DIR"
  elif [ -n "${SHOP_DIR:-}" ]; then
    echo "kept $SHOP_DIR" >&2
  fi
  SHOP_DIR=
}

# The options both OpenAPI scripts take; sets SPEC (absolute, or empty: fetch it from a shop) and
# BUILD (empty with --no-build). --help prints lines 2..HELP_END of the calling script.
shop_spec_options() { # HELP_END "$@"
  local help_end=$1; shift
  SPEC=
  BUILD=1
  while [ $# -gt 0 ]; do
    case $1 in
      --spec) SPEC=${2:?--spec FILE}; [[ $SPEC = /* ]] || SPEC=$CALLER/$SPEC; shift 2 ;;
      --no-build) BUILD=; shift ;;
      -h|--help) sed -n "2,${help_end}p" "$0" | cut -c3-; exit 0 ;;
      *) echo "unknown argument: $1" >&2; exit 2 ;;
    esac
  done
  [ -z "$SPEC" ] || [ -f "$SPEC" ] || { echo "no such file: $SPEC" >&2; exit 2; }
}
