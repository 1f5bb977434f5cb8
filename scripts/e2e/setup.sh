#!/usr/bin/env bash
# Installs what the real-VS-Code tests and `npm start` need: Debian's chromium and libkrb5-dev,
# bubblewrap, socat and ripgrep (the sandbox of stdio servers on Linux: src/core/transport/sandbox.ts),
# Node 24 (the official binary and headers, from npm), and code-server built against it.
# Idempotent: a step whose result is already in the cache is skipped (a warm run takes ~1 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
mkdir -p "$E2E_CACHE/tmp"
export TMPDIR="$E2E_CACHE/tmp"
NPMI=(npm install --no-audit --no-fund --no-save --cache "$NPM_CACHE")
say() { echo "[e2e-setup +${SECONDS}s] $*"; }
say "install cache: $E2E_CACHE; npm download cache: $NPM_CACHE"

need_apt=()
dpkg -s chromium >/dev/null 2>&1 || need_apt+=(chromium)
dpkg -s libkrb5-dev >/dev/null 2>&1 || need_apt+=(libkrb5-dev)
dpkg -s bubblewrap >/dev/null 2>&1 || need_apt+=(bubblewrap)
dpkg -s socat >/dev/null 2>&1 || need_apt+=(socat)
dpkg -s ripgrep >/dev/null 2>&1 || need_apt+=(ripgrep)
if [ ${#need_apt[@]} -gt 0 ]; then
  say "apt-get install ${need_apt[*]}"
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
else
  say "apt: chromium, libkrb5-dev, bubblewrap, socat and ripgrep already installed"
fi

# Node 24: install the platform package directly; the `node` wrapper package fetches it in a
# preinstall script and a later `npm install` prunes it as extraneous.
if [ ! -x "$NODE24" ] || [ "$("$NODE24" -v)" != "v$NODE24_VERSION" ]; then
  say "Node $NODE24_VERSION"
  d=$(dirname "$(dirname "$NODE24_DIR")")
  mkdir -p "$d"; echo '{ "name": "node24", "private": true }' > "$d/package.json"
  (cd "$d" && "${NPMI[@]}" "$NODE_PKG@$NODE24_VERSION" >/dev/null)
else
  say "Node $NODE24_VERSION: cached"
fi
test -f "$NODE24_DIR/include/node/node_version.h"

# code-server: its postinstall insists on Node 24 and builds native modules; point node-gyp at
# Node 24's headers (the user's .npmrc may name Node 20's). The marker is written only after the
# whole install (postinstall included) succeeded, so a broken half-install is redone, not reused.
if [ ! -f "$CS_DIR/.installed" ]; then
  say "code-server $CODE_SERVER_VERSION (a few minutes)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  echo '{ "name": "cs", "private": true, "allowScripts": { "code-server": true, "argon2": true } }' > "$CS_DIR/package.json"
  (cd "$CS_DIR" && env PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" "${NPMI[@]}" "code-server@$CODE_SERVER_VERSION" >/dev/null)
  test -f "$CODE_SERVER/out/node/entry.js"
  touch "$CS_DIR/.installed"
else
  say "code-server $CODE_SERVER_VERSION: cached"
fi
say "ready: node $("$NODE24" -v), code-server $CODE_SERVER_VERSION, $("$CHROMIUM" --version 2>/dev/null | head -1)"
