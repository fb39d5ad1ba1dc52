#!/usr/bin/env bash
# Proves the siwa-server npm package on a clean install, offline:
#
#   bash Packaging/node/check-npm.sh dist/siwa-server-<version>.tgz
#
# `npm install` of the tarball into an empty folder (no registry: the package has no dependencies),
# then `siwa --version` through the package's bin, and the node --test example against its node:http
# app, which signs a user in through startSiwa()'s server and verifies the id_token.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 <tgz>" >&2; exit 2; }
TGZ="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
[ -f "$TGZ" ] || { echo "no package at $TGZ" >&2; exit 1; }

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "== npm install $(basename "$TGZ") into an empty folder, offline"
npm install --offline --no-audit --no-fund --loglevel=warn "$TGZ"
echo "== siwa on the package's bin"
./node_modules/.bin/siwa --version
node -e 'const s = require("siwa-server"); if (typeof s.startSiwa !== "function") process.exit(1); console.log("require(\"siwa-server\").startSiwa: ok")'
[ -f node_modules/siwa-server/index.d.ts ] && echo "index.d.ts: shipped"
echo "== node --test (the example, against a node:http app)"
cp node_modules/siwa-server/examples/*.js .
node --test app.test.js
