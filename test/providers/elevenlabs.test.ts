// voice-agents against a local fake of the ElevenLabs Agents API: every request's method, path, headers
// and body are checked against the documented shapes.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli } from '../_utils.js';
import { ACCOUNT_SID, API_KEY, AUTH_TOKEN, basicAuth, fakeElevenLabs, fakeTwilio } from './_fakes.js';
import { json, makeHome, publishFlow, setSecrets, withWeir } from './_setup.js';

const PHONE = '+15551230002';

async function setup(opts: { publicUrl?: string; twilioUrl?: string } = {}) {
  const eleven = await fakeElevenLabs({ pageSize: 2 });
  const twilio = opts.twilioUrl ? { twilio: { baseUrl: opts.twilioUrl } } : {};
  const home = makeHome({ publicUrl: opts.publicUrl, providers: { voice: 'elevenlabs', elevenlabs: { baseUrl: eleven.url }, ...twilio } });
  await setSecrets(home, { ELEVENLABS_API_KEY: API_KEY });
  return { eleven, home };
}

test('create posts the documented body with xi-api-key; get, update and delete use /v1/convai/agents/{id}', async () => {
  const { eleven, home } = await setup();
  try {
    const created = await json(home, ['va', 'create', 'Front desk', '--voice', 'voice_21m', '--prompt', 'You take bookings.', '--first-message', 'Hello!']);
    assert.is(created.id, 'agent_0001');
    const post = eleven.requests.at(-1)!;
    assert.is(post.method, 'POST');
    assert.is(post.path, '/v1/convai/agents/create');
    assert.is(post.headers['xi-api-key'], API_KEY);
    assert.match(String(post.headers['content-type']), 'application/json');
    assert.equal(post.json, {
      name: 'Front desk',
      conversation_config: { agent: { prompt: { prompt: 'You take bookings.' }, first_message: 'Hello!' }, tts: { voice_id: 'voice_21m' } },
    });

    const got = await json(home, ['va', 'get', 'agent_0001']);
    assert.equal(eleven.requests.at(-1)!.method + ' ' + eleven.requests.at(-1)!.path, 'GET /v1/convai/agents/agent_0001');
    assert.equal([got.name, got.voice, got.prompt, got.firstMessage], ['Front desk', 'voice_21m', 'You take bookings.', 'Hello!']);
    assert.is(got.createdAt, new Date(1700000001 * 1000).toISOString());

    const updated = await json(home, ['va', 'update', 'agent_0001', '--first-message', 'Hi again']);
    const patch = eleven.requests.at(-1)!;
    assert.is(patch.method, 'PATCH');
    assert.is(patch.path, '/v1/convai/agents/agent_0001');
    assert.equal(patch.json, { conversation_config: { agent: { first_message: 'Hi again' } } }, 'only the given field is sent');
    assert.is(updated.firstMessage, 'Hi again');
    assert.is(updated.prompt, 'You take bookings.');
    await json(home, ['va', 'update', 'agent_0001', '--name', 'Desk 2']);
    assert.equal(eleven.requests.at(-1)!.json, { name: 'Desk 2' });

    const del = await cli(['va', 'delete', 'agent_0001'], { home });
    assert.is(del.code, 0, del.stderr);
    assert.is(eleven.requests.at(-1)!.method, 'DELETE');
    assert.is(eleven.requests.at(-1)!.path, '/v1/convai/agents/agent_0001');
    assert.is(eleven.agents.size, 0);
  } finally {
    await eleven.close();
  }
});

test('list follows the cursor until has_more is false', async () => {
  const { eleven, home } = await setup();
  try {
    await withWeir(home, async (w) => {
      for (const name of ['A', 'B', 'C', 'D', 'E']) await w.voiceAgents.create(name);
    });
    eleven.requests.length = 0;
    const list = await json(home, ['va', 'list']);
    assert.equal(list.map((a: any) => a.name), ['A', 'B', 'C', 'D', 'E']);
    assert.equal(
      eleven.requests.map((r) => [r.method, r.path, r.query.cursor ?? null]),
      [
        ['GET', '/v1/convai/agents', null],
        ['GET', '/v1/convai/agents', '2'],
        ['GET', '/v1/convai/agents', '4'],
      ],
    );
    assert.ok(eleven.requests.every((r) => r.query.page_size === '100' && r.headers['xi-api-key'] === API_KEY));
  } finally {
    await eleven.close();
  }
});

test('phones lists the numbers with their assigned agents', async () => {
  const { eleven, home } = await setup();
  try {
    const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
    eleven.addPhone('phnum_x1', PHONE);
    eleven.phones.get('phnum_x1').agent_id = agent.id;
    const phones = await json(home, ['va', 'phones']);
    assert.equal(phones, [{ id: 'phnum_x1', phoneNumber: PHONE, label: PHONE, provider: 'twilio', agentId: agent.id, agentName: 'Desk' }]);
    assert.equal([eleven.requests.at(-1)!.method, eleven.requests.at(-1)!.path], ['GET', '/v1/convai/phone-numbers']);
  } finally {
    await eleven.close();
  }
});

test('configure-inbound attaches the flow\'s agent with PATCH phone-numbers; status agrees; reset detaches', async () => {
  const { eleven, home } = await setup({ publicUrl: 'https://weir.example.com' });
  try {
    const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
    eleven.addPhone('phnum_x1', PHONE);
    await publishFlow(home, 'after-call', { type: 'inbound_call_trigger', config: { phoneNumberId: 'phnum_x1', agentId: agent.id } });
    eleven.requests.length = 0;
    const r = await json(home, ['va', 'configure-inbound', PHONE, 'after-call']);
    assert.equal([r.kind, r.provider, r.phoneNumberId, r.agentId, r.imported, r.warnings], ['call', 'elevenlabs', 'phnum_x1', agent.id, false, []]);
    const patch = eleven.requests.find((q) => q.method === 'PATCH')!;
    assert.is(patch.path, '/v1/convai/phone-numbers/phnum_x1');
    assert.equal(patch.json, { agent_id: agent.id });
    assert.is(patch.headers['xi-api-key'], API_KEY);
    assert.is(eleven.phones.get('phnum_x1').agent_id, agent.id);

    assert.is((await json(home, ['va', 'inbound-status', PHONE])).agrees, true);
    // Someone detaches the agent in the ElevenLabs dashboard: the status notices.
    eleven.phones.get('phnum_x1').agent_id = null;
    const status = await json(home, ['va', 'inbound-status', PHONE]);
    assert.is(status.agrees, false);
    assert.match(status.call.problems[0], `elevenlabs has no agent answering ${PHONE}`);
    const text = await cli(['va', 'inbound-status', PHONE], { home });
    assert.match(text.stdout, 'DISAGREE');

    eleven.phones.get('phnum_x1').agent_id = agent.id;
    eleven.requests.length = 0;
    await json(home, ['va', 'reset-inbound', PHONE]);
    assert.equal(eleven.requests.map((q) => [q.method, q.path, q.json]), [['PATCH', '/v1/convai/phone-numbers/phnum_x1', { agent_id: null }]]);
    assert.is(eleven.phones.get('phnum_x1').agent_id, null);
  } finally {
    await eleven.close();
  }
});

test('a number unknown to ElevenLabs is imported from the Twilio account (POST phone-numbers)', async () => {
  const twilio = await fakeTwilio();
  const { eleven, home } = await setup({ publicUrl: 'https://weir.example.com', twilioUrl: twilio.url });
  try {
    await setSecrets(home, { TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN });
    twilio.add('PN0001', PHONE);
    const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
    // The flow names the number by its Twilio SID, as the seed describes phoneNumberId.
    await publishFlow(home, 'after-call', { type: 'inbound_call_trigger', config: { phoneNumberId: 'PN0001', agentId: agent.id } });
    const r = await json(home, ['va', 'configure-inbound', PHONE, 'after-call']);
    assert.is(r.imported, true);
    assert.equal(r.warnings, [], 'the Twilio SID counts as one of the number\'s ids');
    const post = eleven.requests.find((q) => q.method === 'POST' && q.path === '/v1/convai/phone-numbers')!;
    assert.equal(post.json, { provider: 'twilio', phone_number: PHONE, label: 'weir: after-call', sid: ACCOUNT_SID, token: AUTH_TOKEN });
    assert.is(twilio.requests[0].headers.authorization, basicAuth);
    assert.is((await json(home, ['va', 'phones']))[0].agentId, agent.id);
    const status = await json(home, ['va', 'inbound-status', PHONE]);
    assert.is(status.call.twilioSid, 'PN0001');
    assert.is(status.agrees, true);
  } finally {
    await Promise.all([eleven.close(), twilio.close()]);
  }
});

test('without Twilio credentials an unknown number cannot be imported, and the message says what to set', async () => {
  const { eleven, home } = await setup({ publicUrl: 'https://weir.example.com' });
  try {
    const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
    await publishFlow(home, 'after-call', { type: 'inbound_call_trigger', config: { phoneNumberId: PHONE, agentId: agent.id } });
    const r = await cli(['va', 'configure-inbound', PHONE, 'after-call'], { home });
    assert.is(r.code, 1);
    assert.match(r.stderr, `importing ${PHONE} into ElevenLabs needs the Twilio account`);
    assert.match(r.stderr, 'TWILIO_AUTH_TOKEN');
  } finally {
    await eleven.close();
  }
});

test.run();
