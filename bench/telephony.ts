// Twilio SMS intake under load (32 connections, autocannon), each server in its own child process:
// (a) a raw node:http server that parses the form, checks X-Twilio-Signature and answers empty TwiML;
// (b) `weir serve` /telephony/twilio/sms with TWILIO_AUTH_TOKEN set and 50 published telephony flows, to a
//     number none of them listens on (signature, secrets, flow matching, answer);
// (c) the same to a number whose flow runs (sms_received_trigger -> set): intake plus one execution each.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createWeir } from '../src/weir.js';
import { twilioSignature } from '../src/triggers/telephony/signatures.js';
import { report, start, stop } from './_stats.js';

interface Result {
  requests: { average: number };
  latency: { p99: number; average: number };
  non2xx: number;
}
const autocannon = createRequire(import.meta.url)('autocannon') as (opts: object) => Promise<Result>;

const root = fileURLToPath(new URL('..', import.meta.url));
const cli = join(root, process.env.WEIR_CLI ?? 'dist/cli.js');
const duration = Number(process.env.BENCH_SECONDS ?? 5);
const TOKEN = 'bench-auth-token';
const PUBLIC = 'https://weir.bench.example';
const LISTENED = '+15550001000';

const RAW_SERVER = `
const http = require('node:http');
const { createHmac, timingSafeEqual } = require('node:crypto');
http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const params = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
    let data = '${PUBLIC}/telephony/twilio/sms';
    for (const k of [...new Set(params.keys())].sort()) for (const v of params.getAll(k).sort()) data += k + v;
    const want = Buffer.from(createHmac('sha1', '${TOKEN}').update(data).digest('base64'));
    const got = Buffer.from(String(req.headers['x-twilio-signature'] || ''));
    if (want.length !== got.length || !timingSafeEqual(want, got)) { res.writeHead(403); return res.end(); }
    const out = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';
    res.writeHead(200, { 'content-type': 'text/xml', 'content-length': Buffer.byteLength(out) });
    res.end(out);
  });
}).listen(0, '127.0.0.1', function () { console.log(JSON.stringify({ url: 'http://127.0.0.1:' + this.address().port })); });
`;

/** Signed Twilio form posts to one number (the same body each time, as autocannon repeats it). */
async function load(url: string, to: string): Promise<Result> {
  const params = { MessageSid: 'SMbench', AccountSid: 'ACbench', From: '+15557654321', To: to, Body: 'table for two at eight', NumMedia: '0' };
  const headers = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': twilioSignature(TOKEN, `${PUBLIC}/telephony/twilio/sms`, params) };
  const opts = { url: `${url}/telephony/twilio/sms`, method: 'POST', connections: 32, headers, body: new URLSearchParams(params).toString() };
  await autocannon({ ...opts, duration: 1 }); // warm-up
  return autocannon({ ...opts, duration });
}

const home = mkdtempSync(join(tmpdir(), 'weir-bench-tel-'));
writeFileSync(join(home, 'weir.config.json'), JSON.stringify({ publicUrl: PUBLIC }));
const weir = await createWeir({ home });
await weir.secrets.set('TWILIO_AUTH_TOKEN', TOKEN);
for (let i = 0; i < 50; i++) {
  const phoneNumber = i === 0 ? LISTENED : `+1555000${String(2000 + i)}`;
  await weir.workflows.create(`sms-${i}`, undefined, {
    publish: true,
    config: {
      nodes: [
        { id: 'sms_received_trigger-1', type: 'sms_received_trigger', config: { phoneNumber } },
        { id: 'set-1', type: 'set', config: { values: { body: '{{ $input.message_body }}' } } },
      ],
      edges: [{ id: 'e1', source: 'sms_received_trigger-1', target: 'set-1' }],
    },
  });
}
await weir.close();

const raw = await start(['-e', RAW_SERVER]);
const a = await load(raw.url, '+15559999999');
await stop(raw.child);
const host = await start([cli, 'serve', '--home', home, '--port', '0', '--json', '--quiet']);
const b = await load(host.url, '+15559999999');
const c = await load(host.url, LISTENED);
await stop(host.child);

const rps = (r: Result) => `${Math.round(r.requests.average)} req/s`;
console.log(`(a) raw node:http + signature  ${rps(a).padEnd(14)} p99 ${a.latency.p99} ms  non-2xx ${a.non2xx}`);
console.log(`(b) weir, no flow listening    ${rps(b).padEnd(14)} p99 ${b.latency.p99} ms  non-2xx ${b.non2xx}`);
console.log(`(c) weir, one flow runs        ${rps(c).padEnd(14)} p99 ${c.latency.p99} ms  non-2xx ${c.non2xx}`);
const rb = b.requests.average / a.requests.average;
const rc = c.requests.average / a.requests.average;
report({ name: '(b) signed SMS intake, 50 telephony flows', weir: rps(b), baseline: rps(a), ratio: rb, target: '>= 0.4x', ok: rb >= 0.4 && b.non2xx === 0 });
report({ name: '(c) signed SMS intake + execution', weir: rps(c), baseline: rps(a), ratio: rc, target: '>= 0.1x', ok: rc >= 0.1 && c.non2xx === 0 });
