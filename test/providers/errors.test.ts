// Provider failures (401, 404, 500, no answer, nothing listening) become one clear error line and exit 1.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer } from 'node:net';
import { cli } from '../_utils.js';
import { ACCOUNT_SID, API_KEY, AUTH_TOKEN, fakeElevenLabs, fakeTwilio } from './_fakes.js';
import { makeHome, setSecrets } from './_setup.js';

/** A port on which nothing listens (taken and released). */
async function closedPort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise((r) => srv.close(r));
  return port;
}

async function run(home: string, args: string[]) {
  const [text, json] = await Promise.all([cli(args, { home }), cli([...args, '--json'], { home })]);
  assert.is(text.code, 1, text.stderr);
  assert.is(json.code, 1);
  assert.is(text.stdout, '');
  assert.not.match(text.stderr, /\n\s+at /, 'no stack trace');
  return { stderr: text.stderr, error: JSON.parse(json.stderr).error };
}

test('ElevenLabs: wrong key (401), unknown agent (404), server error (500), no answer, nothing listening', async () => {
  const eleven = await fakeElevenLabs();
  const home = makeHome({ providers: { voice: 'elevenlabs', elevenlabs: { baseUrl: eleven.url, timeoutMs: 400 } } });
  try {
    await setSecrets(home, { ELEVENLABS_API_KEY: 'wrong-key' });
    const unauthorized = await run(home, ['va', 'list']);
    assert.is(unauthorized.error.code, 'UNAUTHORIZED');
    assert.match(unauthorized.stderr, 'error: ElevenLabs refused GET /v1/convai/agents (401): Invalid API key');
    assert.match(unauthorized.stderr, 'hint: check the secret ELEVENLABS_API_KEY');

    await setSecrets(home, { ELEVENLABS_API_KEY: API_KEY });
    const notFound = await run(home, ['va', 'get', 'agent_nope']);
    assert.is(notFound.error.code, 'NOT_FOUND');
    assert.match(notFound.stderr, 'ElevenLabs refused GET /v1/convai/agents/agent_nope (404): Agent not found');

    eleven.fail({ status: 500, body: { detail: 'internal server error' } });
    const broken = await run(home, ['va', 'create', 'X']);
    assert.is(broken.error.code, 'PROVIDER');
    assert.match(broken.stderr, 'ElevenLabs refused POST /v1/convai/agents/create (500): internal server error');

    eleven.fail({ hang: true });
    const started = Date.now();
    const slow = await run(home, ['va', 'phones']);
    assert.is(slow.error.code, 'PROVIDER');
    assert.match(slow.stderr, 'ElevenLabs did not answer GET /v1/convai/phone-numbers within 0.4s');
    assert.ok(Date.now() - started < 10_000);
  } finally {
    await eleven.close();
  }
  const port = await closedPort();
  const down = makeHome({ providers: { voice: 'elevenlabs', elevenlabs: { baseUrl: `http://127.0.0.1:${port}` } } });
  await setSecrets(down, { ELEVENLABS_API_KEY: API_KEY });
  const refused = await run(down, ['va', 'list']);
  assert.is(refused.error.code, 'PROVIDER');
  assert.match(refused.stderr, `cannot reach ElevenLabs at http://127.0.0.1:${port}: ECONNREFUSED`);
  assert.match(refused.stderr, 'providers.elevenlabs.baseUrl');
});

test('Twilio: wrong token (401), server error (500), no answer', async () => {
  const twilio = await fakeTwilio();
  const home = makeHome({ providers: { twilio: { baseUrl: twilio.url, timeoutMs: 400 } } });
  try {
    await setSecrets(home, { TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: 'wrong' });
    const unauthorized = await run(home, ['va', 'twilio-numbers']);
    assert.is(unauthorized.error.code, 'UNAUTHORIZED');
    assert.match(unauthorized.stderr, `Twilio refused GET /2010-04-01/Accounts/${ACCOUNT_SID}/IncomingPhoneNumbers.json (401): Authenticate`);
    assert.match(unauthorized.stderr, 'TWILIO_AUTH_TOKEN');

    await setSecrets(home, { TWILIO_AUTH_TOKEN: AUTH_TOKEN });
    twilio.fail({ status: 500, body: { code: 20500, message: 'Internal Server Error', status: 500 } });
    const broken = await run(home, ['va', 'twilio-numbers']);
    assert.is(broken.error.code, 'PROVIDER');
    assert.match(broken.stderr, '(500): Internal Server Error');

    twilio.fail({ hang: true });
    const slow = await run(home, ['va', 'twilio-numbers']);
    assert.match(slow.stderr, 'Twilio did not answer GET');
    assert.match(slow.stderr, 'within 0.4s');
  } finally {
    await twilio.close();
  }
});

test.run();
