// Twilio signs the SmsUrl exactly as it was configured, query and all: a real `weir serve` must accept what
// Twilio's own library signs and validates, on the public URL with and without the default port.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import twilio from 'twilio';
import { makeHome, publishFlow, setSecrets, startServe, until, withWeir } from '../../providers/_setup.js';

const PUBLIC = 'https://weir.example.com';
const NUMBER = '+15551230009';
const TOKEN = 'twilio-auth-token-url';
const TARGET = '/telephony/twilio/sms?tenant=acme&note=a%20b&ref=x~1:2';
const params = { From: '+15557654321', To: NUMBER, Body: 'with a query', MessageSid: 'SM9' };

const home = makeHome({ publicUrl: PUBLIC });
let hosts: Array<Awaited<ReturnType<typeof startServe>>> = [];

test.before(async () => {
  await publishFlow(home, 'sms-query', { type: 'sms_received_trigger', config: { phoneNumber: NUMBER } });
  await setSecrets(home, { TWILIO_AUTH_TOKEN: TOKEN });
  // The configured public URL without a port, and a host started with the port written out.
  hosts = await Promise.all([startServe(home), startServe(home, ['--public-url', `${PUBLIC}:443`])]);
});

test.after(async () => {
  for (const host of hosts) assert.is(await host.stop(), 0);
});

/** Posts the form to the host's SMS URL (with the query) carrying `signature`. */
async function post(host: string, signature: string): Promise<Response> {
  return fetch(`${host}${TARGET}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
    body: new URLSearchParams(params).toString(),
  });
}

const finished = (executionId: string) =>
  until(() => withWeir(home, async (w) => { const r = await w.executions.get(executionId).catch(() => null); return r?.status === 'success' ? r : null; }));

test('a signature over the SmsUrl with a query, with and without :443, is accepted as twilio.validateRequest accepts it', async () => {
  for (const host of hosts) {
    for (const signedUrl of [`${PUBLIC}${TARGET}`, `https://weir.example.com:443${TARGET}`]) {
      const signature = twilio.getExpectedTwilioSignature(TOKEN, signedUrl, params);
      assert.ok(twilio.validateRequest(TOKEN, signature, `${PUBLIC}${TARGET}`, params), 'Twilio itself accepts it');
      const res = await post(host.url, signature);
      assert.is(res.status, 200, `${signedUrl} on the host of ${host.url}`);
      const [executionId] = res.headers.get('x-weir-executions')!.split(',');
      assert.is((await finished(executionId)).trigger, 'sms');
    }
  }
});

test('a signature over another query, without the query, or for another origin is refused (403)', async () => {
  const others = [
    `${PUBLIC}/telephony/twilio/sms?tenant=other&note=a%20b&ref=x~1:2`,
    `${PUBLIC}/telephony/twilio/sms`,
    `http://weir.example.com${TARGET}`,
    `${PUBLIC}:8443${TARGET}`,
  ];
  for (const host of hosts) {
    for (const signedUrl of others) {
      const res = await post(host.url, twilio.getExpectedTwilioSignature(TOKEN, signedUrl, params));
      assert.is(res.status, 403, signedUrl);
      assert.is(res.headers.get('x-weir-executions'), null);
    }
  }
});

test.run();
