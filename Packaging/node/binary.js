'use strict';
// Where the bundled siwa binary is: native/bin/siwa, with its resources and libraries beside it
// (native/ is the staged siwa-<version>-linux-x86_64 folder). SIWA_BINARY wins, for a development build.
const fs = require('node:fs');
const path = require('node:path');

function siwaBinary() {
  const override = process.env.SIWA_BINARY;
  if (override) return override;
  const bundled = path.join(__dirname, 'native', 'bin', 'siwa');
  if (!fs.existsSync(bundled)) {
    throw new Error(`no siwa binary at ${bundled} (this package holds a linux-x64 binary); set SIWA_BINARY`);
  }
  try {
    fs.accessSync(bundled, fs.constants.X_OK);
  } catch {
    // A package manager that dropped the mode: the binary is ours to make executable again.
    fs.chmodSync(bundled, 0o755);
  }
  return bundled;
}

module.exports = { siwaBinary };
