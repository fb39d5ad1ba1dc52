'use strict';
// A small web app with Sign in with Apple on node:http (Express is not installable on the machines
// this package is built on, which reach no npm registry; the routes are the same with Express).
// /login sends the browser to the authorization page; Apple posts the answer to /callback
// (response_mode=form_post), which exchanges the code (client secret: ES256, minted with the
// team's .p8 key) and verifies the id_token against /auth/keys with node:crypto.
const crypto = require('node:crypto');
const http = require('node:http');

const b64url = (data) => Buffer.from(data).toString('base64url');

function clientSecret({ teamID, keyID, clientID, privateKeyPEM }) {
  const now = Math.floor(Date.now() / 1000);
  const header = b64url(JSON.stringify({ alg: 'ES256', kid: keyID }));
  const claims = b64url(JSON.stringify({ iss: teamID, iat: now, exp: now + 300, aud: 'https://appleid.apple.com', sub: clientID }));
  const signature = crypto.sign('sha256', Buffer.from(`${header}.${claims}`), { key: privateKeyPEM, dsaEncoding: 'ieee-p1363' });
  return `${header}.${claims}.${b64url(signature)}`;
}

async function verifyIDToken(idToken, { keysURL, issuer, clientID, nonce }) {
  const [header, payload, signature] = idToken.split('.');
  const { kid, alg } = JSON.parse(Buffer.from(header, 'base64url'));
  if (alg !== 'RS256') throw new Error(`unexpected alg ${alg}`);
  const { keys } = await (await fetch(keysURL)).json();
  const jwk = keys.find((key) => key.kid === kid);
  if (!jwk) throw new Error(`no key ${kid} in ${keysURL}`);
  const valid = crypto.verify('RSA-SHA256', Buffer.from(`${header}.${payload}`), crypto.createPublicKey({ key: jwk, format: 'jwk' }),
    Buffer.from(signature, 'base64url'));
  if (!valid) throw new Error('bad id_token signature');
  const claims = JSON.parse(Buffer.from(payload, 'base64url'));
  const now = Math.floor(Date.now() / 1000);
  if (claims.iss !== issuer) throw new Error(`iss ${claims.iss}`);
  if (claims.aud !== clientID) throw new Error(`aud ${claims.aud}`);
  if (claims.exp < now) throw new Error('expired id_token');
  if (claims.nonce !== nonce) throw new Error('nonce does not match');
  return claims;
}

function readForm(request) {
  return new Promise((resolve, reject) => {
    let body = '';
    request.on('data', (chunk) => { body += chunk; });
    request.on('end', () => resolve(Object.fromEntries(new URLSearchParams(body))));
    request.on('error', reject);
  });
}

/** config: authorizeURL, tokenURL, keysURL, issuer, clientID, teamID, keyID, privateKeyPEM, redirectURI. */
function createApp(config) {
  const pending = new Map(); // state -> nonce (a real app keeps it in its session)
  const sessions = new Map(); // session cookie -> user
  const send = (response, status, body, headers = {}) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers });
    response.end(JSON.stringify(body));
  };
  return http.createServer(async (request, response) => {
    try {
      const url = new URL(request.url, 'http://app');
      if (request.method === 'GET' && url.pathname === '/login') {
        const state = crypto.randomBytes(16).toString('base64url');
        const nonce = crypto.randomBytes(16).toString('base64url');
        pending.set(state, nonce);
        const query = new URLSearchParams({ client_id: config.clientID, redirect_uri: config.redirectURI, response_type: 'code id_token',
          response_mode: 'form_post', scope: 'name email', state, nonce });
        response.writeHead(302, { location: `${config.authorizeURL}?${query}` });
        return response.end();
      }
      if (request.method === 'POST' && url.pathname === '/callback') {
        const form = await readForm(request);
        if (form.error) return send(response, 400, { error: form.error });
        const nonce = pending.get(form.state);
        if (!nonce) return send(response, 400, { error: 'state does not match' });
        pending.delete(form.state);
        const tokenResponse = await fetch(config.tokenURL, {
          method: 'POST',
          body: new URLSearchParams({ grant_type: 'authorization_code', code: form.code, redirect_uri: config.redirectURI,
            client_id: config.clientID, client_secret: clientSecret(config) }),
        });
        const tokens = await tokenResponse.json();
        if (!tokenResponse.ok) return send(response, 502, tokens);
        const claims = await verifyIDToken(tokens.id_token, { ...config, nonce });
        const user = form.user ? JSON.parse(form.user) : {};
        const session = crypto.randomBytes(16).toString('hex');
        sessions.set(session, { sub: claims.sub, email: claims.email, name: user.name });
        return send(response, 200, sessions.get(session), { 'set-cookie': `session=${session}; HttpOnly; Path=/` });
      }
      if (request.method === 'GET' && url.pathname === '/me') {
        const session = /session=([0-9a-f]+)/.exec(request.headers.cookie || '')?.[1];
        return sessions.has(session) ? send(response, 200, sessions.get(session)) : send(response, 401, {});
      }
      send(response, 404, {});
    } catch (error) {
      send(response, 500, { error: String(error.message || error) });
    }
  });
}

module.exports = { createApp };
