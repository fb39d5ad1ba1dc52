'use strict';
// node --test: signs a user in through the app's own routes against a siwa server started by
// startSiwa(), and verifies the id_token.
const { test, before, after, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const { startSiwa, freePort } = require('siwa-server');
const { createApp } = require('./app.js');

let siwa;
let app;
let appURL;

before(async () => {
  siwa = await startSiwa();
  const port = await freePort();
  appURL = `http://127.0.0.1:${port}`;
  // The app's configuration, pointed at the local server instead of appleid.apple.com.
  app = createApp({
    authorizeURL: siwa.authorizeURL, tokenURL: siwa.tokenURL, keysURL: siwa.keysURL, issuer: siwa.issuer,
    clientID: siwa.demo.services_id, teamID: siwa.demo.team_id, keyID: siwa.demo.key_id, privateKeyPEM: siwa.privateKeyPEM(),
    redirectURI: `${appURL}/callback`,
  });
  await new Promise((resolve) => app.listen(port, '127.0.0.1', resolve));
});

after(async () => {
  app?.close();
  await siwa?.close();
});

beforeEach(async () => {
  await siwa.reset();
  await siwa.addReturnURL(`${appURL}/callback`);
});

/** The browser's part: follow /login, the user approves, Apple posts the form back. */
async function signIn(choices = {}) {
  const login = await fetch(`${appURL}/login`, { redirect: 'manual' });
  assert.equal(login.status, 302);
  const query = new URL(login.headers.get('location')).searchParams;
  const answer = await siwa.authorize({
    clientID: query.get('client_id'), redirectURI: query.get('redirect_uri'), scope: query.get('scope'), state: query.get('state'),
    nonce: query.get('nonce'), responseType: query.get('response_type'), responseMode: query.get('response_mode'), ...choices,
  });
  const callback = await fetch(`${appURL}/callback`, { method: 'POST', body: new URLSearchParams(answer.params) });
  return { answer, callback, body: await callback.json() };
}

test('signs Maria in and verifies her id_token', async () => {
  const { answer, callback, body } = await signIn();
  assert.equal(callback.status, 200, JSON.stringify(body));
  const maria = siwa.demo.users[0];
  const claims = JSON.parse(Buffer.from(answer.idToken.split('.')[1], 'base64url'));
  assert.deepEqual(body, { sub: claims.sub, email: maria.email, name: { firstName: maria.first_name, lastName: maria.last_name } });
  const me = await fetch(`${appURL}/me`, { headers: { cookie: callback.headers.get('set-cookie') } });
  assert.equal((await me.json()).sub, claims.sub);
});

test('the name comes on the first authorization only, until a reset', async () => {
  assert.ok((await signIn()).answer.user);
  assert.equal((await signIn()).answer.user, undefined);
  await siwa.reset();
  await siwa.addReturnURL(`${appURL}/callback`);
  assert.ok((await signIn()).answer.user);
});

test('Hide My Email gives a relay address', async () => {
  const { body } = await signIn({ hideEmail: true });
  assert.match(body.email, /@privaterelay\.appleid\.com$/);
});
