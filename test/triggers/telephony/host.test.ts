// The telephony endpoints of a real `weir serve` child process: signatures, unknown numbers, and an SMS
// and a call each running a published flow (trigger -> kv_set) whose result lands in a KV namespace.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { postCallSignature, twilioSignature } from '../../../src/triggers/telephony/signatures.js';
import { cli } from '../../_utils.js';
import { makeHome, publishFlow, setSecrets, startServe, until, withWeir } from '../../providers/_setup.js';

const PUBLIC = 'https://weir.example.com';
const SMS_NUMBER = '+15551230004';
const CALL_NUMBER = '+15551230005';
const TOKEN = 'twilio-auth-token';
const SECRET = 'wsec_post_call';

const home = makeHome({ publicUrl: PUBLIC });
let host: Awaited<ReturnType<typeof startServe>>;
let agentId = '';
let phoneNumberId = '';

/** The JSON text a flow stored, parsed, once it is there. */
const kvValue = (ns: string, key: string) =>
  until(() => withWeir(home, async (w) => { const v = await w.kv.getValue(ns, key); return v === null ? null : JSON.parse(v); }));

/** Publishes `trigger -> kv_set` storing the whole trigger input under `<ns>/last`. */
const publishStoring = (name: string, trigger: { type: string; config: Record<string, unknown> }, ns: string) =>
  publishFlow(home, name, trigger, [{ id: 'kv_set-1', type: 'kv_set', config: { namespace: ns, key: 'last', value: '{{ $input }}' } }], [
    { id: 'e1', source: `${trigger.type}-1`, target: 'kv_set-1' },
  ]);
const lastIs = (ns: string, field: string, value: string) => until(async () => ((await kvValue(ns, 'last'))[field] === value ? true : null));

function smsForm(params: Record<string, string>, token?: string, url = `${PUBLIC}/telephony/twilio/sms`) {
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
  if (token) headers['x-twilio-signature'] = twilioSignature(token, url, params);
  return { method: 'POST', headers, body: new URLSearchParams(params).toString() };
}

function postCall(agent: string, numberId: string, opts: { secret?: string; t?: number; type?: string } = {}) {
  const body = JSON.stringify({
    type: opts.type ?? 'post_call_transcription',
    event_timestamp: 1,
    data: {
      agent_id: agent,
      conversation_id: 'conv_1',
      transcript: [{ role: 'agent', message: 'Hello' }],
      metadata: { call_duration_secs: 42, phone_call: { type: 'twilio', phone_number_id: numberId, agent_number: CALL_NUMBER, external_number: '+15557654321', call_sid: 'CA123' } },
      analysis: { data_collection_results: { party_size: { value: 2 } } },
    },
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (opts.secret) headers['elevenlabs-signature'] = postCallSignature(opts.secret, body, opts.t ?? Math.floor(Date.now() / 1000));
  return { method: 'POST', headers, body };
}

test.before(async () => {
  agentId = (await withWeir(home, (w) => w.voiceAgents.create('Desk'))).id;
  phoneNumberId = (await withWeir(home, (w) => w.voiceAgents.importPhone(CALL_NUMBER))).id;
  await withWeir(home, async (w) => {
    await w.kv.init('inbox');
    await w.kv.init('calls');
  });
  await publishStoring('sms-in', { type: 'sms_received_trigger', config: { phoneNumber: SMS_NUMBER } }, 'inbox');
  await publishStoring('after-call', { type: 'inbound_call_trigger', config: { phoneNumberId, agentId } }, 'calls');
  host = await startServe(home);
});

test.after(async () => {
  assert.is(await host.stop(), 0);
});

test('without TWILIO_AUTH_TOKEN an unsigned SMS runs the flow; the input lands in KV', async () => {
  const res = await fetch(`${host.url}/telephony/twilio/sms`, smsForm({ From: '+15557654321', To: SMS_NUMBER, Body: 'hello weir', MessageSid: 'SM1', Extra: 'kept' }));
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type')!, 'text/xml');
  assert.match(await res.text(), /<Response>\s*<\/Response>|<Response\/>/);
  const [executionId] = res.headers.get('x-weir-executions')!.split(',');
  assert.match(executionId, /^exec_/);
  const stored = await kvValue('inbox', 'last');
  assert.is(stored.message_body, 'hello weir');
  assert.is(stored.sending_number, '+15557654321');
  assert.is(stored.receiving_number, SMS_NUMBER);
  assert.ok(Math.abs(Date.parse(stored.received_timestamp) - Date.now()) < 60_000, stored.received_timestamp);
  assert.match(stored.received_timestamp, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
  const record = await until(() => withWeir(home, async (w) => { const r = await w.executions.get(executionId).catch(() => null); return r?.status === 'success' ? r : null; }));
  assert.is(record.trigger, 'sms');
});

test('with the secrets set: signatures are checked (Twilio 403, ElevenLabs 401 / stale 403)', async () => {
  await setSecrets(home, { TWILIO_AUTH_TOKEN: TOKEN, ELEVENLABS_WEBHOOK_SECRET: SECRET });
  const params = { From: '+15557654321', To: SMS_NUMBER, Body: 'signed', MessageSid: 'SM2' };
  const sms = (init: RequestInit) => fetch(`${host.url}/telephony/twilio/sms`, init);
  assert.is((await sms(smsForm(params))).status, 403, 'unsigned');
  assert.is((await sms(smsForm(params, 'wrong-token'))).status, 403, 'wrong token');
  assert.is((await sms(smsForm(params, TOKEN, `${host.url}/telephony/twilio/sms`))).status, 403, 'signed for another URL than the public one');
  const tampered = smsForm(params, TOKEN);
  tampered.body = tampered.body.replace('signed', 'forged');
  assert.is((await sms(tampered)).status, 403, 'tampered body');
  const good = await sms(smsForm(params, TOKEN));
  assert.is(good.status, 200);
  await lastIs('inbox', 'message_body', 'signed');

  const call = (init: RequestInit) => fetch(`${host.url}/telephony/voice/post-call`, init);
  const unsigned = await call(postCall(agentId, phoneNumberId));
  assert.is(unsigned.status, 401);
  assert.match(await unsigned.text(), 'missing');
  assert.is((await call(postCall(agentId, phoneNumberId, { secret: 'other' }))).status, 401);
  const stale = await call(postCall(agentId, phoneNumberId, { secret: SECRET, t: Math.floor(Date.now() / 1000) - 31 * 60 }));
  assert.is(stale.status, 403);
  assert.match(await stale.text(), 'older than 30 minutes');
  const fresh = await call(postCall(agentId, phoneNumberId, { secret: SECRET, t: Math.floor(Date.now() / 1000) - 60 }));
  assert.is(fresh.status, 200);
  const body = await fresh.json();
  assert.is(body.executions.length, 1);
  assert.is(body.executions[0].workflowName, 'after-call');
  const stored = await kvValue('calls', 'last');
  assert.equal(stored, {
    callSid: 'CA123',
    from: '+15557654321',
    to: CALL_NUMBER,
    transcript: [{ role: 'agent', message: 'Hello' }],
    data_collection_results: { party_size: { value: 2 } },
    call_duration_secs: 42,
    conversation_id: 'conv_1',
    agent_id: agentId,
  });
});

test('unknown numbers and agents start nothing but are acknowledged; other event types are ignored', async () => {
  const sms = await fetch(`${host.url}/telephony/twilio/sms`, smsForm({ From: '+15557654321', To: '+15550000000', Body: 'x' }, TOKEN));
  assert.is(sms.status, 200);
  assert.is(sms.headers.get('x-weir-executions'), '');
  const other = await (await fetch(`${host.url}/telephony/voice/post-call`, postCall('agent_unknown', phoneNumberId, { secret: SECRET }))).json();
  assert.equal(other.executions, []);
  const wrongNumber = await (await fetch(`${host.url}/telephony/voice/post-call`, postCall(agentId, 'phnum_other', { secret: SECRET }))).json();
  assert.equal(wrongNumber.executions, [], 'the agent alone does not match: the number must too');
  const audio = await (await fetch(`${host.url}/telephony/voice/post-call`, postCall(agentId, phoneNumberId, { secret: SECRET, type: 'post_call_audio' }))).json();
  assert.equal([audio.ignored, audio.executions], ['post_call_audio', []]);
  const broken = await fetch(`${host.url}/telephony/voice/post-call`, { method: 'POST', headers: { 'elevenlabs-signature': postCallSignature(SECRET, 'nope', Math.floor(Date.now() / 1000)) }, body: 'nope' });
  assert.is(broken.status, 400);
});

test('a flow published while the host runs gets the next message', async () => {
  const number = '+15551230006';
  const before = await fetch(`${host.url}/telephony/twilio/sms`, smsForm({ From: '+15557654321', To: number, Body: 'early' }, TOKEN));
  assert.is(before.headers.get('x-weir-executions'), '');
  await withWeir(home, (w) => w.kv.init('late'));
  await publishStoring('late-sms', { type: 'sms_received_trigger', config: { phoneNumber: number } }, 'late');
  const after = await fetch(`${host.url}/telephony/twilio/sms`, smsForm({ From: '+15557654321', To: number, Body: 'late' }, TOKEN));
  assert.match(after.headers.get('x-weir-executions')!, /^exec_/);
  await lastIs('late', 'message_body', 'late');
});

test('simulate-sms and simulate-call post signed payloads to the running host and run the flows', async () => {
  const sms = await cli(['va', 'simulate-sms', SMS_NUMBER, '--from', '+15557654322', '--body', 'from the CLI'], { home });
  assert.is(sms.code, 0, sms.stderr);
  assert.match(sms.stdout, 'host answered 200 (request signed)');
  assert.match(sms.stdout, /started 1 execution: exec_\w+/);
  await lastIs('inbox', 'message_body', 'from the CLI');
  assert.is((await kvValue('inbox', 'last')).sending_number, '+15557654322');

  const transcript = join(home, 'call.txt');
  writeFileSync(transcript, 'agent: Good evening, how can I help?\nuser: A table for two at eight.\n');
  const call = await cli(['va', 'simulate-call', CALL_NUMBER, '--transcript', transcript, '--from', '+15557654323', '--json'], { home });
  assert.is(call.code, 0, call.stderr);
  assert.is(call.json().executions.length, 1);
  await lastIs('calls', 'from', '+15557654323');
  const stored = await kvValue('calls', 'last');
  assert.equal(stored.transcript.map((t: any) => [t.role, t.message]), [['agent', 'Good evening, how can I help?'], ['user', 'A table for two at eight.']]);
  assert.is(stored.agent_id, agentId, 'the agent came from the local provider\'s number');
  assert.ok(stored.call_duration_secs > 0);

  const nobody = await cli(['va', 'simulate-sms', '+15550000000', '--from', '+15557654322', '--body', 'x'], { home });
  assert.is(nobody.code, 1);
  assert.match(nobody.stderr, 'started no flow: no published flow has an sms_received_trigger on +15550000000');
  const noHost = await cli(['va', 'simulate-sms', SMS_NUMBER, '--from', '+15557654322', '--body', 'x', '--url', 'http://127.0.0.1:9'], { home });
  assert.is(noHost.code, 1);
  assert.match(noHost.stderr, 'no weir host answers at http://127.0.0.1:9');
});

test.run();
