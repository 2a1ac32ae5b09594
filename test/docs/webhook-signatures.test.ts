// The signature recipes of docs/webhooks.md, run as Code nodes against requests signed by the senders' own
// libraries: the flow must accept what the sender signed, byte for byte, and refuse a forgery.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { sign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import twilio from 'twilio';
import { publish, send, startHost } from '../host/_helpers.js';

const SECRET = 'It\'s a Secret to Everybody';
const STRIPE_SECRET = 'whsec_test_secret_0123456789';
const TWILIO_TOKEN = 'twilio-auth-token-0123456789';

/** The Code node text of each ```js recipe=<name> block of docs/webhooks.md. */
const recipes = Object.fromEntries(
  [...readFileSync(new URL('../../docs/webhooks.md', import.meta.url), 'utf8').matchAll(/```js recipe=(\w+)\n([\s\S]*?)```/g)].map((m) => [m[1], m[2]]),
);

let host: Awaited<ReturnType<typeof startHost>>;
const hooks: Record<string, string> = {};

/** A flow whose Code node runs `code`, answering with the node's data (or the error it throws). */
async function addFlow(name: string, code: string) {
  const f = await publish(host.weir, name, { type: 'webhook_trigger', config: { respondImmediately: false } }, [{ id: 'code-1', type: 'code', config: { code } }], [
    { id: 'e1', source: 'webhook_trigger-1', target: 'code-1' },
  ]);
  hooks[name] = `${host.url}/trigger/${f.token}`;
}

test.before(async () => {
  host = await startHost();
  await host.weir.secrets.set('GITHUB_WEBHOOK_SECRET', SECRET);
  await host.weir.secrets.set('STRIPE_WEBHOOK_SECRET', STRIPE_SECRET);
  await host.weir.secrets.set('SLACK_SIGNING_SECRET', SECRET);
  await host.weir.secrets.set('TWILIO_AUTH_TOKEN', TWILIO_TOKEN);
  for (const name of ['github', 'stripe', 'twilio', 'slack']) await addFlow(name, recipes[name]);
  await addFlow('echo', 'return { rawBody: $input.rawBody, body: $input.body, hmac: $crypto.hmac("sha256", $env.GITHUB_WEBHOOK_SECRET, $input.rawBody, "hex") }');
  await host.weir.secrets.set('TWILIO_WEBHOOK_URL', `${hooks.twilio}?flow=calls`);
});
test.after(() => host.close());

test('docs/webhooks.md holds the four recipes', () => {
  assert.equal(Object.keys(recipes).sort(), ['github', 'slack', 'stripe', 'twilio']);
});

test('GitHub: octokit sign() over pretty-printed JSON with unicode and over a form-encoded payload= delivery', async () => {
  const pretty = `${JSON.stringify({ ref: 'refs/heads/main', pusher: { name: 'José 🚀' }, message: 'naïve <fix> \u2028' }, null, 2)}\n`;
  const json = await send(hooks.github, { body: pretty, headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': await sign(SECRET, pretty) } });
  assert.is(json.status, 200, json.text);
  assert.equal(json.json, { verified: true, event: 'push' });

  const form = `payload=${encodeURIComponent(JSON.stringify({ zen: 'Keep it logically awesome. é' }))}`;
  const posted = await send(hooks.github, { body: form, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'ping', 'x-hub-signature-256': await sign(SECRET, form) } });
  assert.is(posted.status, 200, posted.text);
  assert.equal(posted.json, { verified: true, event: 'ping' });

  const forged = await send(hooks.github, { body: pretty.replace('main', 'evil'), headers: { 'content-type': 'application/json', 'x-hub-signature-256': await sign(SECRET, pretty) } });
  assert.is(forged.status, 401);
});

test('Stripe: a pretty-printed event signed by the stripe library passes the recipe and constructEvent', async () => {
  const stripe = new Stripe('sk_test_placeholder');
  const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'payment_intent.succeeded', data: { object: { description: 'Café crème' } } }, null, 2);
  const header = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET });
  const r = await send(hooks.stripe, { body: payload, headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header } });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json, { verified: true, type: 'payment_intent.succeeded' });
  assert.is(stripe.webhooks.constructEvent(payload, header, STRIPE_SECRET).id, 'evt_1');

  const stale = stripe.webhooks.generateTestHeaderString({ payload, secret: STRIPE_SECRET, timestamp: Math.floor(Date.now() / 1000) - 3600 });
  assert.is((await send(hooks.stripe, { body: payload, headers: { 'content-type': 'application/json', 'stripe-signature': stale } })).status, 401);
});

test('Twilio: a form signed with getExpectedTwilioSignature over the configured URL', async () => {
  const params = { CallSid: 'CA123', From: '+15551234567', Body: 'Olá, mundo & more', To: '+15557654321' };
  const url = `${hooks.twilio}?flow=calls`;
  const signature = twilio.getExpectedTwilioSignature(TWILIO_TOKEN, url, params);
  const body = new URLSearchParams(params).toString();
  const r = await send(url, { body, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature } });
  assert.is(r.status, 200, r.text);
  assert.equal(r.json, { verified: true, from: '+15551234567' });
  const other = await send(url, { body: body.replace('CA123', 'CA999'), headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature } });
  assert.is(other.status, 401);
});

test('Slack: the v0 scheme over a slash-command form and a JSON event', async () => {
  const slack = async (body: string, type: string, ts = Math.floor(Date.now() / 1000)) => {
    const signature = `v0=${createHmac('sha256', SECRET).update(`v0:${ts}:${body}`).digest('hex')}`;
    return send(hooks.slack, { body, headers: { 'content-type': type, 'x-slack-request-timestamp': String(ts), 'x-slack-signature': signature } });
  };
  const command = 'token=x&team_id=T1&command=%2Fweather&text=S%C3%A3o+Paulo&response_url=https%3A%2F%2Fhooks.slack.com%2Fx';
  assert.equal((await slack(command, 'application/x-www-form-urlencoded')).json, { verified: true });
  assert.equal((await slack('{"type":"event_callback","event":{"text":"h\\u00e9llo \\/ w\\u00f6rld"}}', 'application/json')).json, { verified: true });
  assert.is((await slack(command, 'application/x-www-form-urlencoded', Math.floor(Date.now() / 1000) - 600)).status, 401);
});

test('compact JSON with \\u00e9 and \\/ escapes reaches the flow as sent, and its HMAC matches', async () => {
  const body = '{"name":"Jos\\u00e9","url":"https:\\/\\/example.com\\/a"}';
  const r = await send(hooks.echo, { body, headers: { 'content-type': 'application/json' } });
  assert.is(r.status, 200, r.text);
  assert.is(r.json.rawBody, body);
  assert.equal(r.json.body, { name: 'José', url: 'https://example.com/a' });
  assert.is(r.json.hmac, createHmac('sha256', SECRET).update(body).digest('hex'));
});

test.run();
