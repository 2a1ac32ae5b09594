// Local stand-ins for the ElevenLabs Agents API and Twilio's IncomingPhoneNumbers API. They speak the
// documented request/response shapes, keep state in memory, and record every request for assertions.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Recorded {
  method: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  json?: any;
  form?: Record<string, string>;
}

/** A canned failure: the next matching requests answer `status` (or never answer with `hang`). */
export interface Failure {
  status?: number;
  body?: unknown;
  hang?: boolean;
}

export interface Fake {
  url: string;
  requests: Recorded[];
  /** Makes every request fail until `fail(null)`. */
  fail(f: Failure | null): void;
  close(): Promise<void>;
}

type Handler = (req: Recorded) => { status: number; body?: unknown } | undefined;

async function startFake(handler: Handler): Promise<Fake & { server: Server }> {
  const requests: Recorded[] = [];
  let failure: Failure | null = null;
  const hanging = new Set<ServerResponse>();
  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const url = new URL(req.url!, 'http://fake');
    const body = Buffer.concat(chunks).toString('utf8');
    const rec: Recorded = { method: req.method!, path: url.pathname, query: Object.fromEntries(url.searchParams), headers: req.headers, body };
    const type = String(req.headers['content-type'] ?? '');
    if (type.includes('json') && body) rec.json = JSON.parse(body);
    if (type.includes('x-www-form-urlencoded')) rec.form = Object.fromEntries(new URLSearchParams(body));
    requests.push(rec);
    if (failure?.hang) {
      hanging.add(res);
      return;
    }
    const out = failure ? { status: failure.status ?? 500, body: failure.body } : (handler(rec) ?? { status: 404, body: { detail: { status: 'not_found', message: `no route ${rec.method} ${rec.path}` } } });
    res.writeHead(out.status, { 'content-type': 'application/json' });
    res.end(out.body === undefined ? '' : JSON.stringify(out.body));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    server,
    url: `http://127.0.0.1:${port}`,
    requests,
    fail: (f) => (failure = f),
    close: () =>
      new Promise<void>((r) => {
        for (const res of hanging) res.destroy();
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export const API_KEY = 'xi-test-key';

/** ElevenLabs: agents (`/v1/convai/agents...`) and phone numbers (`/v1/convai/phone-numbers...`). */
export async function fakeElevenLabs(opts: { pageSize?: number } = {}) {
  const agents = new Map<string, any>();
  const phones = new Map<string, any>();
  let n = 0;
  const unauthorized = { status: 401, body: { detail: { status: 'invalid_api_key', message: 'Invalid API key' } } };
  const notFound = (what: string) => ({ status: 404, body: { detail: { status: 'not_found', message: `${what} not found` } } });
  const phoneOut = (p: any) => {
    const agent = p.agent_id ? agents.get(p.agent_id) : null;
    return { phone_number: p.phone_number, label: p.label, phone_number_id: p.phone_number_id, provider: 'twilio', supports_inbound: true, assigned_agent: agent ? { agent_id: agent.agent_id, agent_name: agent.name } : null };
  };
  const fake = await startFake((req) => {
    if (req.headers['xi-api-key'] !== API_KEY) return unauthorized;
    const m = /^\/v1\/convai\/agents\/([^/]+)$/.exec(req.path);
    if (req.method === 'POST' && req.path === '/v1/convai/agents/create') {
      const id = `agent_${String(++n).padStart(4, '0')}`;
      agents.set(id, { agent_id: id, name: req.json.name, conversation_config: req.json.conversation_config, metadata: { created_at_unix_secs: 1700000000 + n } });
      return { status: 200, body: { agent_id: id } };
    }
    if (req.method === 'GET' && req.path === '/v1/convai/agents') {
      const all = [...agents.values()];
      const size = Math.min(Number(req.query.page_size ?? 30), opts.pageSize ?? 100);
      const start = req.query.cursor ? Number(req.query.cursor) : 0;
      const page = all.slice(start, start + size).map((a) => ({ agent_id: a.agent_id, name: a.name, tags: [], created_at_unix_secs: a.metadata.created_at_unix_secs }));
      const more = start + size < all.length;
      return { status: 200, body: { agents: page, has_more: more, next_cursor: more ? String(start + size) : null } };
    }
    if (m) {
      const agent = agents.get(decodeURIComponent(m[1]));
      if (!agent) return notFound('Agent');
      if (req.method === 'GET') return { status: 200, body: agent };
      if (req.method === 'DELETE') {
        agents.delete(agent.agent_id);
        return { status: 200, body: {} };
      }
      if (req.method === 'PATCH') {
        const c = req.json.conversation_config ?? {};
        const conv = (agent.conversation_config ??= {});
        if (req.json.name !== undefined) agent.name = req.json.name;
        if (c.agent) conv.agent = { ...conv.agent, ...c.agent };
        if (c.tts) conv.tts = { ...conv.tts, ...c.tts };
        return { status: 200, body: agent };
      }
    }
    if (req.path === '/v1/convai/phone-numbers') {
      if (req.method === 'GET') return { status: 200, body: [...phones.values()].map(phoneOut) };
      if (req.method === 'POST') {
        const id = `phnum_${String(++n).padStart(4, '0')}`;
        phones.set(id, { phone_number_id: id, phone_number: req.json.phone_number, label: req.json.label, agent_id: null });
        return { status: 200, body: { phone_number_id: id } };
      }
    }
    const p = /^\/v1\/convai\/phone-numbers\/([^/]+)$/.exec(req.path);
    if (p && req.method === 'PATCH') {
      const phone = phones.get(decodeURIComponent(p[1]));
      if (!phone) return notFound('Phone number');
      if (req.json.agent_id && !agents.has(req.json.agent_id)) return { status: 422, body: { detail: [{ loc: ['body', 'agent_id'], msg: 'unknown agent' }] } };
      phone.agent_id = req.json.agent_id;
      return { status: 200, body: phoneOut(phone) };
    }
    return undefined;
  });
  return { ...fake, agents, phones, addPhone: (id: string, phone_number: string) => phones.set(id, { phone_number_id: id, phone_number, label: phone_number, agent_id: null }) };
}

export const ACCOUNT_SID = 'AC00000000000000000000000000000001';
export const AUTH_TOKEN = 'twilio-test-token';
export const basicAuth = `Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`;

/** Twilio: `/2010-04-01/Accounts/{sid}/IncomingPhoneNumbers[.json|/{PN}.json]`, paged by `next_page_uri`. */
export async function fakeTwilio(opts: { pageSize?: number } = {}) {
  const numbers = new Map<string, any>();
  const base = `/2010-04-01/Accounts/${ACCOUNT_SID}/IncomingPhoneNumbers`;
  const fake = await startFake((req) => {
    if (req.headers.authorization !== basicAuth) return { status: 401, body: { code: 20003, message: 'Authenticate', more_info: 'https://www.twilio.com/docs/errors/20003', status: 401 } };
    if (req.method === 'GET' && req.path === `${base}.json`) {
      const all = [...numbers.values()];
      const size = Math.min(Number(req.query.PageSize ?? 50), opts.pageSize ?? 50);
      const page = Number(req.query.Page ?? 0);
      const more = (page + 1) * size < all.length;
      return {
        status: 200,
        body: {
          incoming_phone_numbers: all.slice(page * size, (page + 1) * size),
          page,
          page_size: size,
          next_page_uri: more ? `${base}.json?PageSize=${size}&Page=${page + 1}&PageToken=PA${page + 1}` : null,
        },
      };
    }
    const m = /\/IncomingPhoneNumbers\/([^/]+)\.json$/.exec(req.path);
    if (m && req.method === 'POST' && req.path.startsWith(base)) {
      const num = numbers.get(m[1]);
      if (!num) return { status: 404, body: { code: 20404, message: `The requested resource ${req.path} was not found`, status: 404 } };
      if (req.form!.SmsUrl !== undefined) num.sms_url = req.form!.SmsUrl;
      if (req.form!.VoiceUrl !== undefined) num.voice_url = req.form!.VoiceUrl;
      return { status: 200, body: num };
    }
    return undefined;
  });
  const add = (sid: string, phone_number: string, extra: Record<string, string> = {}) =>
    numbers.set(sid, { sid, account_sid: ACCOUNT_SID, phone_number, friendly_name: phone_number, voice_url: '', sms_url: '', ...extra });
  return { ...fake, numbers, add };
}
