import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import {
  postCallSignature,
  twilioSignature,
  verifyPostCallSignature,
  verifyTwilioSignature,
} from '../../../src/triggers/telephony/signatures.js';

const vector = {
  url: 'https://mycompany.com/myapp.php?foo=1&bar=2',
  params: { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' },
  token: '12345',
  expected: '0/KCTR6DLpKmkAf8muzZqo1nDgQ=',
};

test('Twilio test vector: the documented signature', () => {
  assert.is(twilioSignature(vector.token, vector.url, vector.params), vector.expected);
  assert.ok(verifyTwilioSignature(vector.token, vector.url, vector.params, vector.expected));
});

test('Twilio signature: parameter order does not matter, any change does', () => {
  const reversed = Object.fromEntries(Object.entries(vector.params).reverse());
  assert.ok(verifyTwilioSignature(vector.token, vector.url, reversed, vector.expected));
  assert.not.ok(verifyTwilioSignature(vector.token, vector.url, { ...vector.params, Digits: '1235' }, vector.expected));
  assert.not.ok(verifyTwilioSignature('54321', vector.url, vector.params, vector.expected));
  assert.not.ok(verifyTwilioSignature(vector.token, 'https://mycompany.com/myapp.php', vector.params, vector.expected));
  assert.not.ok(verifyTwilioSignature(vector.token, vector.url, vector.params, undefined));
  assert.not.ok(verifyTwilioSignature(vector.token, vector.url, vector.params, 'short'));
});

test('Twilio signature: repeated parameters sign each value, sorted', () => {
  const sig = twilioSignature('t', 'https://x.example/sms', { A: ['2', '1'] });
  const expected = createHmac('sha1', 't').update('https://x.example/smsA1A2').digest('base64');
  assert.is(sig, expected);
});

const secret = 'wsec_test';
const body = Buffer.from(JSON.stringify({ type: 'post_call_transcription', data: { agent_id: 'a' } }));

test('post-call signature: t=<unix>,v0=<hex HMAC-SHA256 of "t.body">', () => {
  const header = postCallSignature(secret, body, 1700000000);
  const mac = createHmac('sha256', secret).update(`1700000000.${body}`).digest('hex');
  assert.is(header, `t=1700000000,v0=${mac}`);
});

test('post-call signature: fresh is ok, tampered/missing/garbled is invalid, 31 minutes old is stale', () => {
  const now = Date.now();
  const t = Math.floor(now / 1000);
  assert.is(verifyPostCallSignature(secret, body, postCallSignature(secret, body, t), now), 'ok');
  assert.is(verifyPostCallSignature(secret, body, postCallSignature(secret, body, t - 29 * 60), now), 'ok');
  assert.is(verifyPostCallSignature(secret, body, postCallSignature(secret, body, t - 31 * 60), now), 'stale');
  assert.is(verifyPostCallSignature(secret, Buffer.concat([body, Buffer.from(' ')]), postCallSignature(secret, body, t), now), 'invalid');
  assert.is(verifyPostCallSignature('other', body, postCallSignature(secret, body, t), now), 'invalid');
  assert.is(verifyPostCallSignature(secret, body, undefined, now), 'missing');
  assert.is(verifyPostCallSignature(secret, body, 'v0=abc', now), 'invalid');
  assert.is(verifyPostCallSignature(secret, body, `t=${t},v0=`, now), 'invalid');
  // A replay that rewrites t to now without the secret cannot produce a matching MAC.
  const old = postCallSignature(secret, body, t - 3600);
  assert.is(verifyPostCallSignature(secret, body, old.replace(/t=\d+/, `t=${t}`), now), 'invalid');
});

test.run();
