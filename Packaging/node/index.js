'use strict';
// startSiwa(): a siwa serve for tests, on a free loopback port with a temporary data folder, and
// the helpers a test wants (reset, authorize, clientSecret, ...). Node's standard library only.
const { spawn, execFile } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const { siwaBinary } = require('./binary.js');

/** A port nobody listens on now. */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class AdminError extends Error {
  constructor(status, error, description, call) {
    super(`${description || error} (${error} from ${call} -> ${status})`);
    this.status = status;
    this.error = error;
    this.description = description;
  }
}

/** The admin API (Sources/AppleIDServer/OpenAPI/openapi.yaml): one call, JSON in and out. */
async function adminCall(url, token, method, pathname, body) {
  const response = await fetch(url + pathname, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) {
    let answer = {};
    try { answer = JSON.parse(text); } catch { /* not JSON */ }
    throw new AdminError(response.status, answer.error || 'http_error', answer.error_description || text, `${method} ${pathname}`);
  }
  return text ? JSON.parse(text) : null;
}

async function waitUntilReady(child, url, dataDir, output, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  const facts = path.join(dataDir, 'demo.json');
  for (;;) {
    if (child.exitCode !== null) throw new Error(`siwa serve exited with ${child.exitCode}:\n${output()}`);
    try {
      const response = await fetch(`${url}/.well-known/openid-configuration`, { signal: AbortSignal.timeout(2000) });
      if (response.ok && fs.existsSync(facts)) {
        const demo = JSON.parse(fs.readFileSync(facts, 'utf8'));
        // demo.json is written once the socket listens: it names this server.
        if (demo.server === url) return demo;
      }
    } catch { /* not listening yet */ }
    if (Date.now() > deadline) throw new Error(`siwa serve did not answer ${url} within ${timeoutMs} ms:\n${output()}`);
    await sleep(20);
  }
}

/**
 * Starts siwa serve and resolves when its discovery document answers.
 * @param {import('./index').SiwaOptions} [options]
 */
async function startSiwa(options = {}) {
  const binary = options.binary || siwaBinary();
  const ownsDir = !options.dataDir;
  const dataDir = options.dataDir || fs.mkdtempSync(path.join(os.tmpdir(), 'siwa-'));
  const port = options.port || (await freePort());
  const smtpPort = options.smtpPort ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const args = ['serve', '--host', '127.0.0.1', '--port', String(port), '--data-dir', dataDir, '--smtp-port', String(smtpPort),
    '--log-level', process.env.SIWA_LOG_LEVEL || 'warning'];
  if (options.config) args.push('--config', options.config);
  args.push(...(options.args || []));
  const child = spawn(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  const keep = (chunk) => { log = (log + chunk).slice(-8000); };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 10000);
      await exited;
      clearTimeout(timer);
    }
    if (ownsDir) fs.rmSync(dataDir, { recursive: true, force: true });
  };
  let demo;
  try {
    demo = await waitUntilReady(child, url, dataDir, () => log, options.timeoutMs || 60000);
  } catch (error) {
    await stop();
    throw error;
  }
  const adminToken = demo.admin_token;
  const admin = (method, pathname, body) => adminCall(url, adminToken, method, pathname, body);
  const segment = encodeURIComponent;

  return {
    url,
    adminToken,
    demo,
    dataDir,
    issuer: demo.issuer,
    authorizeURL: `${url}/auth/authorize`,
    tokenURL: `${url}/auth/token`,
    keysURL: `${url}/auth/keys`,
    admin,
    /** Back to the seeded state: the demo team, apps, keys and Apple IDs, nothing else. */
    reset: () => admin('POST', '/admin/reset'),
    /** Stops the server and removes its temporary data folder. */
    close: stop,
    /** The demo key's .p8 (PEM), for apps that mint their own client secrets. */
    privateKeyPEM: () => fs.readFileSync(demo.key_file, 'utf8'),
    /** An ES256 client secret signed with the demo key (`siwa secret`). */
    clientSecret: ({ clientID = demo.services_id, lifetime = '1h', audience = 'https://appleid.apple.com' } = {}) =>
      new Promise((resolve, reject) => {
        execFile(binary, ['secret', '--team-id', demo.team_id, '--key-id', demo.key_id, '--key', demo.key_file,
          '--client-id', clientID, '--lifetime', lifetime, '--audience', audience], (error, stdout, stderr) => {
          if (error) reject(new Error(`siwa secret: ${stderr || error.message}`));
          else resolve(stdout.trim());
        });
      }),
    /** Registers a Return URL for the demo Services ID (a reset removes it). */
    addReturnURL: (returnURL, clientID = demo.services_id) =>
      admin('POST', `/admin/clients/${segment(clientID)}/return-urls`, { url: returnURL }),
    /** Approves an authorization without a browser; resolves to what the Return URL receives. */
    authorize: async (order = {}) => {
      const body = {
        client_id: order.clientID || demo.services_id,
        redirect_uri: order.redirectURI || demo.return_urls[0],
        apple_id: order.appleID || demo.users[0].apple_id,
        response_type: order.responseType || 'code id_token',
      };
      const scope = order.scope === undefined ? 'name email' : order.scope;
      if (scope) { body.scope = scope; body.response_mode = order.responseMode || 'form_post'; }
      else if (order.responseMode) body.response_mode = order.responseMode;
      for (const [key, name] of [['state', 'state'], ['nonce', 'nonce'], ['codeChallenge', 'code_challenge'],
        ['codeChallengeMethod', 'code_challenge_method'], ['hideEmail', 'hide_email']]) {
        if (order[key] !== undefined) body[name] = order[key];
      }
      const [params] = (await admin('POST', '/admin/authorizations', body)).results;
      if (params.error) throw new Error(`authorization refused: ${JSON.stringify(params)}`);
      return { params, code: params.code, idToken: params.id_token, state: params.state, user: params.user ? JSON.parse(params.user) : undefined };
    },
    createAppleID: (appleID, password = 'test password', fields = {}) => admin('POST', '/admin/users', { apple_id: appleID, password, ...fields }),
    stopUsing: (appleID, groupID = demo.bundle_id) => admin('POST', `/admin/users/${segment(appleID)}/stop-using`, { group_id: groupID }),
    deleteAppleID: (appleID) => admin('DELETE', `/admin/users/${segment(appleID)}`),
    mailbox: async (address) => (await admin('GET', `/admin/mail${address ? `?to=${segment(address)}` : ''}`)).messages,
    advanceClock: (seconds) => admin('POST', '/admin/clock/advance', { seconds }),
  };
}

module.exports = { startSiwa, freePort, AdminError };
