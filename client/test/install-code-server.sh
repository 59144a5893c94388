#!/usr/bin/env bash
# Installs code-server 4.99.4 (VS Code 1.99.3's server and workbench) for `npm run test:e2e`,
# from npm and Debian only: no GitHub access needed (see /work/shared/facts/real-editors.md).
# Idempotent: installs only the Debian packages that are missing, and skips code-server
# when the right version is already installed and complete.
#
#   CODE_SERVER_PREFIX   where to install (default /opt/code-server-4.99.4); the e2e runner
#                        reads the same variable.
set -euo pipefail

VERSION=4.99.4
PREFIX="${CODE_SERVER_PREFIX:-/opt/code-server-$VERSION}"
PKG="$PREFIX/lib/node_modules/code-server"
MARKER="$PREFIX/.render-lens-complete-$VERSION"

# Debian packages, each only if missing: chromium runs the workbench (headless, driven by
# playwright-core); libkrb5-dev (GSSAPI headers) for the kerberos module; ripgrep instead of
# a GitHub download; a compiler for argon2, node-pty and kerberos.
need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
# A font, so the workbench lays text out (squiggle and hover positions, screenshots).
[ -f /usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf ] || need+=(fonts-dejavu-core)
command -v rg >/dev/null 2>&1 || need+=(ripgrep)
[ -f /usr/include/gssapi/gssapi.h ] || need+=(libkrb5-dev)
command -v make >/dev/null 2>&1 || need+=(make)
command -v g++ >/dev/null 2>&1 || need+=(g++)
command -v python3 >/dev/null 2>&1 || need+=(python3)
if [ ${#need[@]} -gt 0 ]; then
  echo "installing Debian packages: ${need[*]}"
  SUDO=; [ "$(id -u)" = 0 ] || SUDO=sudo
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -qq
  $SUDO apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
fi

if [ -f "$MARKER" ] && [ -f "$PKG/lib/vscode/out/server-main.js" ] \
  && [ "$(node -p "require('$PKG/package.json').version" 2>/dev/null)" = "$VERSION" ]; then
  echo "code-server $VERSION already installed in $PREFIX"
  exit 0
fi

# @vscode/ripgrep 1.15.11 looks for a cached tarball before downloading from GitHub:
# give it Debian's rg under the name it expects.
cache="$(node -p 'require("os").tmpdir()')/vscode-ripgrep-cache-1.15.11"
tarball="$cache/ripgrep-v13.0.0-10-x86_64-unknown-linux-musl.tar.gz"
if [ ! -s "$tarball" ]; then
  mkdir -p "$cache"
  staging="$(mktemp -d)"
  cp "$(command -v rg)" "$staging/rg"
  tar -czf "$tarball" -C "$staging" rg
  rm -rf "$staging"
fi

echo "installing code-server $VERSION into $PREFIX"
rm -rf "$PKG" "$MARKER"
mkdir -p "$PREFIX"
# Its own postinstall fails inside a global install (the nested npm install inherits global
# mode), so skip the scripts here and run them below.
npm install -g --prefix "$PREFIX" --ignore-scripts --no-audit --no-fund "code-server@$VERSION"

cd "$PKG"
# argon2's prebuilt binary comes from GitHub; the rebuild falls back to building from source.
npm rebuild argon2
(
  unset npm_config_global npm_config_prefix NPM_CONFIG_GLOBAL NPM_CONFIG_PREFIX
  export npm_config_user_agent="npm/$(npm -v) node/$(node -v) linux x64"
  export npm_config_yes=true
  [ "$(id -u)" = 0 ] && export npm_config_unsafe_perm=true
  sh ./postinstall.sh
)

test -f "$PKG/lib/vscode/out/server-main.js"
touch "$MARKER"
echo "code-server $VERSION installed in $PREFIX"
