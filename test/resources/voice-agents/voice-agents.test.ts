// Every voice-agents command against the embedded `local` voice provider (no credentials, no network).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli } from '../../_utils.js';
import { json, makeHome, publishFlow, withWeir } from '../../providers/_setup.js';

const PHONE = '+15551230001';

test('a bare group prints its usage through both names', async () => {
  const home = makeHome();
  const runs = await Promise.all(['voice-agents', 'va'].map((name) => cli([name], { home })));
  for (const r of runs) {
    assert.is(r.code, 0);
    assert.match(r.stdout, 'Usage: weir voice-agents <command>');
    for (const cmd of ['configure-inbound <phone> <flow-id>', 'inbound-status <phone>', 'twilio-numbers', 'simulate-sms <to>']) assert.match(r.stdout, cmd);
  }
});

test('create, list, get, update and delete a voice agent', async () => {
  const home = makeHome();
  const created = await cli(['va', 'create', 'Front desk', '--voice', 'rachel', '--prompt', 'You take bookings.', '--first-message', 'Hello!'], { home });
  assert.is(created.code, 0, created.stderr);
  const id = /created voice agent (agent_\w+) \(Front desk\)/.exec(created.stdout)?.[1];
  assert.ok(id, created.stdout);

  const [list, text] = await Promise.all([json(home, ['va', 'list']), cli(['va', 'ls'], { home })]);
  assert.equal(list.map((a: any) => [a.id, a.name, a.voice]), [[id, 'Front desk', 'rachel']]);
  assert.match(text.stdout, /ID\s+NAME\s+VOICE/);
  assert.match(text.stdout, id!);

  const got = await json(home, ['va', 'get', id!]);
  assert.is(got.prompt, 'You take bookings.');
  assert.is(got.firstMessage, 'Hello!');

  const updated = await json(home, ['va', 'update', id!, '--prompt', 'You cancel bookings.']);
  assert.is(updated.prompt, 'You cancel bookings.');
  assert.is(updated.name, 'Front desk', 'fields not given stay');
  assert.is(updated.voice, 'rachel');
  const renamed = await json(home, ['va', 'update', id!, '--name', 'Back desk']);
  assert.is(renamed.name, 'Back desk');

  const nothing = await cli(['va', 'update', id!], { home });
  assert.is(nothing.code, 2);
  assert.match(nothing.stderr, 'nothing to update');

  const del = await cli(['va', 'delete', id!], { home });
  assert.is(del.code, 0);
  assert.match(del.stdout, `deleted voice agent ${id}`);
  const [gone, again] = await Promise.all([cli(['va', 'get', id!, '--json'], { home }), cli(['va', 'delete', id!], { home })]);
  assert.is(gone.code, 1);
  assert.is(gone.stdout, '');
  assert.equal(JSON.parse(gone.stderr).error.code, 'NOT_FOUND');
  assert.is(again.code, 1);
});

test('import-phone and phones; numbers must be E.164', async () => {
  const home = makeHome();
  const bad = ['5551230001', '+1-555-123', '+0123456789', 'tel:+15551230001'];
  const refused = await Promise.all(bad.map((phone) => cli(['va', 'import-phone', phone], { home })));
  for (const [i, r] of refused.entries()) {
    assert.is(r.code, 1, bad[i]);
    assert.match(r.stderr, 'E.164');
    assert.match(r.stderr, '+15551234567');
  }
  const imported = await json(home, ['va', 'import-phone', PHONE, '--label', 'Main line']);
  assert.match(imported.id, /^phnum_/);
  const phones = await json(home, ['va', 'phones']);
  assert.equal(phones, [{ ...imported, agentName: null }]);
  assert.is(phones[0].label, 'Main line');
  const again = await cli(['va', 'import-phone', PHONE], { home });
  assert.is(again.code, 1);
  assert.match(again.stderr, 'already known');
});

test('configure-inbound needs an E.164 number, a published telephony flow and a publicUrl', async () => {
  const home = makeHome();
  const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
  const callFlow = await publishFlow(home, 'after-call', { type: 'inbound_call_trigger', config: { phoneNumberId: PHONE, agentId: agent.id } });
  const hook = await publishFlow(home, 'hook', { type: 'webhook_trigger', config: {} });
  const draft = await withWeir(home, async (w) => (await w.workflows.create('draft-only')).id);

  const [noUrl, badPhone, unpublished, wrongTrigger, missing] = await Promise.all(
    [
      [PHONE, callFlow],
      ['555', callFlow],
      [PHONE, draft],
      [PHONE, hook],
      [PHONE, 'no-such-flow'],
    ].map((args) => cli(['va', 'configure-inbound', ...args], { home })),
  );
  assert.is(noUrl.code, 1);
  assert.match(noUrl.stderr, 'weir.config.json');
  assert.match(noUrl.stderr, '"publicUrl"');
  assert.match(noUrl.stderr, 'weir serve --public-url');

  assert.is(badPhone.code, 1);
  assert.match(badPhone.stderr, 'E.164');

  assert.is(unpublished.code, 1);
  assert.match(unpublished.stderr, 'is not published');
  assert.is(wrongTrigger.code, 1);
  assert.match(wrongTrigger.stderr, 'webhook_trigger');
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'workflow "no-such-flow" not found');
});

test('configure-inbound for a call flow assigns the agent, inbound-status agrees, reset-inbound undoes it', async () => {
  const home = makeHome({ publicUrl: 'https://weir.example.com/' });
  const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
  const flowId = await publishFlow(home, 'after-call', { type: 'inbound_call_trigger', config: { phoneNumberId: PHONE, agentId: agent.id } });

  const before = await json(home, ['va', 'inbound-status', PHONE]);
  assert.equal(before, { phone: PHONE, configured: false, agrees: null, call: null, sms: null });

  const r = await cli(['va', 'configure-inbound', PHONE, 'after-call'], { home });
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, `calls answered by agent ${agent.id}`);
  assert.match(r.stdout, 'post-call webhook URL: https://weir.example.com/telephony/voice/post-call');
  assert.not.match(r.stdout, 'warning');

  const [phone] = await json(home, ['va', 'phones']);
  assert.is(phone.phoneNumber, PHONE, 'the local provider imported the number');
  assert.is(phone.agentId, agent.id);
  assert.is(phone.agentName, 'Desk');

  const [status, statusText] = await Promise.all([json(home, ['va', 'inbound-status', PHONE]), cli(['va', 'inbound-status', PHONE], { home })]);
  assert.is(status.configured, true);
  assert.is(status.agrees, true);
  assert.is(status.call.flowId, flowId);
  assert.is(status.call.providerAgentId, agent.id);
  assert.equal(status.call.problems, []);
  assert.match(statusText.stdout, 'providers agree');

  // The flow goes away: the status says so and no longer agrees.
  await withWeir(home, (w) => w.workflows.delete(flowId, { unpublish: true }));
  const stale = await json(home, ['va', 'inbound-status', PHONE]);
  assert.is(stale.agrees, false);
  assert.match(stale.call.problems.join('\n'), 'no longer published');

  const reset = await cli(['va', 'reset-inbound', PHONE], { home });
  assert.is(reset.code, 0, reset.stderr);
  assert.match(reset.stdout, 'has no agent');
  const [phonesAfter, statusAfter, again] = await Promise.all([json(home, ['va', 'phones']), json(home, ['va', 'inbound-status', PHONE]), cli(['va', 'reset-inbound', PHONE], { home })]);
  assert.is(phonesAfter[0].agentId, null);
  assert.is(statusAfter.configured, false);
  assert.is(again.code, 1);
  assert.match(again.stderr, 'has no inbound configuration');
});

test('configure-inbound warns when the flow names none of the number\'s ids, and checks the agent exists', async () => {
  const home = makeHome({ publicUrl: 'https://weir.example.com' });
  const agent = await withWeir(home, (w) => w.voiceAgents.create('Desk'));
  await publishFlow(home, 'elsewhere', { type: 'inbound_call_trigger', config: { phoneNumberId: 'PN-other', agentId: agent.id } });
  await publishFlow(home, 'ghost', { type: 'inbound_call_trigger', config: { phoneNumberId: PHONE, agentId: 'agent_missing' } });
  const [r, ghost] = await Promise.all(['elsewhere', 'ghost'].map((f) => cli(['va', 'configure-inbound', PHONE, f], { home })));
  assert.is(r.code, 0, r.stderr);
  assert.match(r.stdout, 'warning: the flow\'s inbound_call_trigger.phoneNumberId "PN-other" is none of this number\'s ids');
  assert.is(ghost.code, 1);
  assert.match(ghost.stderr, 'agent "agent_missing" is not a voice agent of local');
});

test('Twilio commands without credentials say which secrets to set', async () => {
  const home = makeHome({ publicUrl: 'https://weir.example.com' });
  await publishFlow(home, 'sms-in', { type: 'sms_received_trigger', config: { phoneNumber: PHONE } });
  const [numbers, configure, other] = await Promise.all([
    cli(['va', 'twilio-numbers'], { home }),
    cli(['va', 'configure-inbound', PHONE, 'sms-in'], { home }),
    cli(['va', 'configure-inbound', '+15559990000', 'sms-in'], { home }),
  ]);
  for (const r of [numbers, configure]) {
    assert.is(r.code, 1);
    assert.match(r.stderr, 'Twilio needs the secrets TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
    assert.match(r.stderr, 'weir secrets set TWILIO_ACCOUNT_SID');
  }
  assert.is(other.code, 1);
  assert.match(other.stderr, 'listens for SMS on +15551230001, not on +15559990000');
});

test('providers.voice: elevenlabs without a key names the secret; an unknown provider is refused', async () => {
  const [eleven, bogus] = await Promise.all([
    cli(['va', 'list'], { home: makeHome({ providers: { voice: 'elevenlabs' } }) }),
    cli(['va', 'list', '--json'], { home: makeHome({ providers: { voice: 'bogus' } }) }),
  ]);
  assert.is(eleven.code, 1);
  assert.match(eleven.stderr, 'ElevenLabs needs the secret ELEVENLABS_API_KEY');
  assert.match(eleven.stderr, 'weir secrets set ELEVENLABS_API_KEY');
  assert.is(bogus.code, 1);
  assert.is(JSON.parse(bogus.stderr).error.code, 'INVALID_CONFIG');
  assert.match(bogus.stderr, 'local, elevenlabs');
});

test.run();
