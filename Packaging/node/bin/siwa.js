#!/usr/bin/env node
'use strict';
// `npx siwa ...`: runs the bundled binary with the same arguments, terminal and exit status.
const { spawn } = require('node:child_process');
const { siwaBinary } = require('../binary.js');

let binary;
try {
  binary = siwaBinary();
} catch (error) {
  process.stderr.write(`siwa: ${error.message}\n`);
  process.exit(127);
}
const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal));
}
child.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
});
