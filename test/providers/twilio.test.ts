// twilio-numbers and the SMS side of configure-inbound / inbound-status / reset-inbound against a local
// fake of Twilio's IncomingPhoneNumbers API (Basic auth, form-encoded updates, next_page_uri paging).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { cli } from '../_utils.js';
import { ACCOUNT_SID, AUTH_TOKEN, basicAuth, fakeTwilio } from './_fakes.js';
import { json, makeHome, publishFlow, setSecrets } from './_setup.js';

const PHONE = '+15551230003';
const PUBLIC = 'https://weir.example.com';
const NUMBERS = `/2010-04-01/Accounts/${ACCOUNT_SID}/IncomingPhoneNumbers`;

async function setup() {
  const twilio = await fakeTwilio({ pageSize: 2 });
  const home = makeHome({ publicUrl: PUBLIC, providers: { twilio: { baseUrl: twilio.url } } });
  await setSecrets(home, { TWILIO_ACCOUNT_SID: ACCOUNT_SID, TWILIO_AUTH_TOKEN: AUTH_TOKEN });
  return { twilio, home };
}

test('twilio-numbers pages through next_page_uri and tells where each number\'s calls and messages go', async () => {
  const { twilio, home } = await setup();
  try {
    twilio.add('PN0001', '+15551230001', { voice_url: 'https://api.us.elevenlabs.io/twilio/inbound_call' });
    twilio.add('PN0002', '+15551230002', { sms_url: `${PUBLIC}/telephony/twilio/sms` });
    twilio.add('PN0003', PHONE, { sms_url: 'https://demo.twilio.com/welcome/sms/reply' });
    const numbers = await json(home, ['va', 'twilio-numbers']);
    assert.equal(
      numbers.map((n: any) => [n.phoneNumber, n.sid, n.voice, n.sms]),
      [
        ['+15551230001', 'PN0001', 'voice provider', 'none'],
        ['+15551230002', 'PN0002', 'none', 'weir'],
        [PHONE, 'PN0003', 'none', 'other'],
      ],
    );
    assert.equal(
      twilio.requests.map((r) => [r.method, r.path, r.query.Page ?? null]),
      [
        ['GET', `${NUMBERS}.json`, null],
        ['GET', `${NUMBERS}.json`, '1'],
      ],
    );
    assert.ok(twilio.requests.every((r) => r.headers.authorization === basicAuth));
    const text = await cli(['va', 'twilio-numbers'], { home });
    assert.match(text.stdout, /PHONENUMBER\s+SID\s+FRIENDLYNAME\s+VOICE\s+SMS\s+SMSFLOW/);
  } finally {
    await twilio.close();
  }
});

test('configure-inbound for an SMS flow sets SmsUrl; status agrees until Twilio changes; reset restores it', async () => {
  const { twilio, home } = await setup();
  try {
    twilio.add('PN0003', PHONE, { sms_url: 'https://old.example.com/sms' });
    const flowId = await publishFlow(home, 'sms-in', { type: 'sms_received_trigger', config: { phoneNumber: PHONE } });
    twilio.requests.length = 0;
    const r = await cli(['va', 'configure-inbound', PHONE, flowId], { home });
    assert.is(r.code, 0, r.stderr);
    assert.match(r.stdout, `${PHONE}: messages run flow sms-in (${flowId})`);
    assert.match(r.stdout, `Twilio SmsUrl (PN0003): ${PUBLIC}/telephony/twilio/sms`);
    const update = twilio.requests.find((q) => q.method === 'POST')!;
    assert.is(update.path, `${NUMBERS}/PN0003.json`);
    assert.match(String(update.headers['content-type']), 'application/x-www-form-urlencoded');
    assert.is(update.headers.authorization, basicAuth);
    assert.equal(update.form, { SmsUrl: `${PUBLIC}/telephony/twilio/sms`, SmsMethod: 'POST' });

    const listed = await json(home, ['va', 'twilio-numbers']);
    assert.equal([listed[0].sms, listed[0].smsFlow], ['weir', 'sms-in']);
    const ok = await json(home, ['va', 'inbound-status', PHONE]);
    assert.equal([ok.configured, ok.agrees, ok.sms.twilioSmsUrl, ok.call], [true, true, `${PUBLIC}/telephony/twilio/sms`, null]);

    twilio.numbers.get('PN0003').sms_url = 'https://hijack.example.com/sms';
    const bad = await json(home, ['va', 'inbound-status', PHONE]);
    assert.is(bad.agrees, false);
    assert.equal(bad.sms.problems, ['Twilio sends its messages to https://hijack.example.com/sms']);

    twilio.requests.length = 0;
    const reset = await cli(['va', 'reset-inbound', PHONE], { home });
    assert.is(reset.code, 0, reset.stderr);
    assert.match(reset.stdout, 'restored to https://old.example.com/sms');
    assert.equal(twilio.requests.map((q) => [q.method, q.path, q.form]), [['POST', `${NUMBERS}/PN0003.json`, { SmsUrl: 'https://old.example.com/sms', SmsMethod: 'POST' }]]);
    assert.is(twilio.numbers.get('PN0003').sms_url, 'https://old.example.com/sms');
    assert.is((await json(home, ['va', 'inbound-status', PHONE])).configured, false);
  } finally {
    await twilio.close();
  }
});

test('a number that is not on the Twilio account is refused', async () => {
  const { twilio, home } = await setup();
  try {
    twilio.add('PN0001', '+15551230001');
    await publishFlow(home, 'sms-in', { type: 'sms_received_trigger', config: { phoneNumber: PHONE } });
    const r = await cli(['va', 'configure-inbound', PHONE, 'sms-in', '--json'], { home });
    assert.is(r.code, 1);
    assert.is(r.stdout, '');
    const err = JSON.parse(r.stderr).error;
    assert.is(err.code, 'NOT_FOUND');
    assert.is(err.message, `${PHONE} is not a number of the Twilio account ${ACCOUNT_SID}`);
    assert.not.ok(twilio.requests.some((q) => q.method === 'POST'), 'nothing was changed');
  } finally {
    await twilio.close();
  }
});

test.run();
