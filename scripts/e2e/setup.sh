#!/usr/bin/env bash
# Installs what `npm start` and the real-VS-Code tests need:
#   - Debian packages, system-wide with apt-get (as root, else through sudo), each named before it is
#     installed: libkrb5-dev (code-server's native modules build against it), bubblewrap, socat and
#     ripgrep (the sandbox of stdio servers on Linux: src/core/transport/sandbox.ts), and, for the
#     tests only, chromium (the browser the UI tests drive) and a real Secret Service for the CLI's
#     keychain tests (dbus-daemon, gnome-keyring, libsecret-tools: test/integration/secretService.ts);
#   - into the per-user cache ($E2E_CACHE): Node 24 (the official binary and headers, from npm),
#     code-server built against it, and, for the tests only, the MCP conformance suite (it needs
#     Node >= 22; pinned by test/conformance/suite/package-lock.json).
# `--start` installs only what `npm start` needs; `--base` only what the plain-Node tests need (the
# Debian packages and Node 24: `npm test` runs them while the rest installs). Idempotent: a step
# whose result is already in place is skipped (a warm run takes ~1 s).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/env.sh"
for_tests=1
base_only=0
[ "${1:-}" = "--start" ] && for_tests=0
[ "${1:-}" = "--base" ] && base_only=1
mkdir -p "$E2E_CACHE/tmp"
export TMPDIR="$E2E_CACHE/tmp"
# Two checkouts may set up at once (their `npm test`s side by side): one at a time, the second
# finds the first's install in place.
if command -v flock >/dev/null; then exec 9>"$E2E_CACHE/.setup.lock"; flock 9; fi
NPMI=(npm install --no-audit --no-fund --no-save --cache "$NPM_CACHE")
say() { echo "[e2e-setup +${SECONDS}s] $*"; }
say "install cache: $E2E_CACHE; npm download cache: $NPM_CACHE"

declare -A why=(
  [libkrb5-dev]="headers code-server's native modules are built against"
  [bubblewrap]="the sandbox of stdio servers on Linux"
  [socat]="the sandbox's network bridge"
  [ripgrep]="the sandbox's scan for files it must hide"
  [chromium]="the browser the UI tests drive"
  [dbus-daemon]="a private session bus for the keychain tests"
  [gnome-keyring]="the Secret Service the CLI's keychain tests use"
  [libsecret-tools]="secret-tool, to look into that keychain"
)
wanted=(libkrb5-dev bubblewrap socat ripgrep)
[ $for_tests = 1 ] && wanted+=(chromium dbus-daemon gnome-keyring libsecret-tools)
need_apt=()
# Installed means "install ok installed": `dpkg -s` also succeeds for a package removed but not
# purged (its config files left), and Chromium keeps some.
installed() { [ "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null)" = "install ok installed" ]; }
for pkg in "${wanted[@]}"; do installed "$pkg" || need_apt+=("$pkg"); done
if [ ${#need_apt[@]} -gt 0 ]; then
  SUDO=; [ "$(id -u)" -eq 0 ] || SUDO=sudo
  say "installing Debian packages system-wide (${SUDO:+sudo }apt-get install):"
  for pkg in "${need_apt[@]}"; do printf '    %-15s %s\n' "$pkg" "${why[$pkg]}"; done
  # Another install may hold apt's lock (a second checkout setting up): wait for it rather than fail.
  wait_lock=(-o DPkg::Lock::Timeout=600)
  $SUDO apt-get "${wait_lock[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get "${wait_lock[@]}" install -y -qq --no-install-recommends "${need_apt[@]}" >/dev/null
else
  say "apt: ${wanted[*]} already installed"
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
if [ $base_only = 1 ]; then say "ready for the plain-Node tests: node $("$NODE24" -v)"; exit 0; fi

# code-server: its postinstall insists on Node 24 and builds native modules; point node-gyp at
# Node 24's headers (the user's .npmrc may name Node 20's). They are built without optimisation
# (-O0 comes after node-gyp's -O3 on each compile line, so it wins): the build is the setup's
# largest cost (238 s of CPU at -O3, 139 s at -O0, whole setup), and the tests' workbench loads took
# the same CPU either way. The marker is written only after the whole install (postinstall
# included) succeeded, so a broken half-install is redone, not reused.
if [ ! -f "$CS_DIR/.installed" ]; then
  say "code-server $CODE_SERVER_VERSION (a few minutes)"
  rm -rf "$CS_DIR"; mkdir -p "$CS_DIR"
  echo '{ "name": "cs", "private": true, "allowScripts": { "code-server": true, "argon2": true } }' > "$CS_DIR/package.json"
  (cd "$CS_DIR" && env PATH="$NODE24_DIR/bin:$PATH" npm_config_nodedir="$NODE24_DIR" CFLAGS="${CFLAGS:-} -O0" CXXFLAGS="${CXXFLAGS:-} -O0" "${NPMI[@]}" "code-server@$CODE_SERVER_VERSION" >/dev/null)
  test -f "$CODE_SERVER/out/node/entry.js"
  touch "$CS_DIR/.installed"
else
  say "code-server $CODE_SERVER_VERSION: cached"
fi

# The conformance suite, exactly as its lockfile says, installed by npm running on Node 24 (whose
# engines it meets); the folder is keyed by the lockfile's hash, so a new pin is a new install.
if [ $for_tests = 1 ]; then
  if [ ! -f "$CONFORMANCE_DIR/.installed" ]; then
    say "MCP conformance suite ($(basename "$CONFORMANCE_DIR"))"
    rm -rf "$CONFORMANCE_DIR"; mkdir -p "$CONFORMANCE_DIR"
    cp "$CONFORMANCE_LOCK_DIR/package.json" "$CONFORMANCE_LOCK_DIR/package-lock.json" "$CONFORMANCE_DIR/"
    (cd "$CONFORMANCE_DIR" && env PATH="$NODE24_DIR/bin:$PATH" npm ci --no-audit --no-fund --cache "$NPM_CACHE" >/dev/null)
    test -f "$CONFORMANCE"
    touch "$CONFORMANCE_DIR/.installed"
  else
    say "MCP conformance suite: cached"
  fi
fi
ready="node $("$NODE24" -v), code-server $CODE_SERVER_VERSION"
if [ $for_tests = 1 ]; then
  "$CHROMIUM" --version >/dev/null 2>&1 || { say "Chromium does not run: $CHROMIUM"; exit 1; }
  ready+=", $("$CHROMIUM" --version | head -1)"
fi
say "ready: $ready"
