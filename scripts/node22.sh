#!/bin/sh
# Runs a command with Node >= 22.12 first on PATH: the system's Node when it is new enough,
# otherwise a copy installed from the npm registry (package node@22) into .node/ of the project.
# Nothing global is changed.
set -e
root=$(cd "$(dirname "$0")/.." && pwd)
new_enough() {
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number); process.exit(a > 22 || (a === 22 && b >= 12) ? 0 : 1)' 2>/dev/null
}
if ! new_enough node; then
  bin="$root/.node/node_modules/node/bin"
  if ! new_enough "$bin/node"; then
    echo "node22: the system Node is $(node --version 2>/dev/null || echo missing); installing Node 22 into .node/" >&2
    mkdir -p "$root/.node"
    npm install --prefix "$root/.node" --no-save --no-package-lock --no-audit --no-fund node@22 >&2
    new_enough "$bin/node" || { echo "node22: could not install Node 22 from the npm registry" >&2; exit 1; }
  fi
  PATH="$bin:$PATH"
  export PATH
fi
exec "$@"
