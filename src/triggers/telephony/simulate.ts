import { randomBytes } from 'node:crypto';
import { WeirError, type ErrorCode } from '../../errors.js';
import { EXECUTIONS_HEADER, POST_CALL_PATH, SMS_PATH, trimUrl } from './flows.js';
import { postCallSignature, twilioSignature } from './signatures.js';
import { jsonSyntaxProblem } from '../../util/json-syntax.js';

/** What the host answered a simulated provider request. */
export interface HostAnswer {
  url: string;
  status: number;
  contentType: string;
  body: string;
  /** Execution ids the host started (its `x-weir-executions` header). */
  executions: string[];
  signed: boolean;
}

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

const HOST_CODES: Record<number, ErrorCode> = { 400: 'INVALID_INPUT', 401: 'UNAUTHORIZED', 403: 'FORBIDDEN', 404: 'NOT_FOUND', 413: 'PAYLOAD_TOO_LARGE' };

async function post(url: string, body: string, headers: Record<string, string>, signed: boolean): Promise<HostAnswer> {
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers, body, signal: AbortSignal.timeout(30_000) });
  } catch (err) {
    const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
    throw new WeirError('UNAVAILABLE', `no weir host answers at ${url} (${cause})`, {
      hints: ['start one with `weir serve`, or give its address with --url'],
    });
  }
  const text = await res.text();
  if (!res.ok) {
    throw new WeirError(HOST_CODES[res.status] ?? 'UNAVAILABLE', `the host refused the request (${res.status}): ${text.slice(0, 300)}`, { status: res.status });
  }
  const executions = (res.headers.get(EXECUTIONS_HEADER) ?? '').split(',').filter(Boolean);
  return { url, status: res.status, contentType: res.headers.get('content-type') ?? '', body: text, executions, signed };
}

export interface SimulatedSms {
  /** The host's base URL to post to. */
  url: string;
  /** The public URL the host checks signatures against (defaults to `url`). */
  publicUrl?: string;
  to: string;
  from: string;
  body: string;
  /** `TWILIO_AUTH_TOKEN`: when given, the request carries a valid `X-Twilio-Signature`. */
  authToken?: string;
  accountSid?: string;
}

/**
 * Posts a Twilio incoming-message webhook (form-urlencoded, signed like Twilio signs it) to a weir host.
 * @example
 * await simulateSms({ url: 'http://127.0.0.1:8787', to: '+15551234567', from: '+15557654321', body: 'hi' })
 */
export function simulateSms(o: SimulatedSms): Promise<HostAnswer> {
  const sid = `SM${hex(16)}`;
  const params: Record<string, string> = {
    ToCountry: 'US',
    SmsMessageSid: sid,
    NumMedia: '0',
    SmsSid: sid,
    SmsStatus: 'received',
    Body: o.body,
    To: o.to,
    NumSegments: '1',
    MessageSid: sid,
    AccountSid: o.accountSid ?? `AC${hex(16)}`,
    From: o.from,
    ApiVersion: '2010-04-01',
  };
  const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'weir-simulate (TwilioProxy/1.1)' };
  if (o.authToken) headers['x-twilio-signature'] = twilioSignature(o.authToken, trimUrl(o.publicUrl ?? o.url) + SMS_PATH, params);
  return post(trimUrl(o.url) + SMS_PATH, new URLSearchParams(params).toString(), headers, !!o.authToken);
}

/** One turn of a conversation, as ElevenLabs reports it. */
export interface TranscriptTurn {
  role: string;
  message: string;
  time_in_call_secs?: number;
  [key: string]: unknown;
}

export interface SimulatedCall {
  url: string;
  /** The called number (E.164) and its id at the voice provider. */
  phone: string;
  phoneNumberId: string;
  agentId: string;
  from: string;
  transcript: TranscriptTurn[];
  dataCollectionResults?: Record<string, unknown>;
  callDurationSecs?: number;
  /** `ELEVENLABS_WEBHOOK_SECRET`: when given, the request carries a valid `ElevenLabs-Signature`. */
  secret?: string;
  /** Unix seconds of the signature (default: now). */
  timestamp?: number;
}

/**
 * Posts an ElevenLabs `post_call_transcription` webhook of a finished Twilio call to a weir host.
 * @example
 * await simulateCall({ url, phone: '+15551234567', phoneNumberId: 'phnum_1', agentId: 'agent_1', from: '+15557654321', transcript })
 */
export function simulateCall(o: SimulatedCall): Promise<HostAnswer> {
  const now = Math.floor(Date.now() / 1000);
  const duration = o.callDurationSecs ?? Math.max(1, Math.ceil(o.transcript.at(-1)?.time_in_call_secs ?? 0) + 2);
  const payload = {
    type: 'post_call_transcription',
    event_timestamp: now,
    data: {
      agent_id: o.agentId,
      conversation_id: `conv_${hex(12)}`,
      status: 'done',
      transcript: o.transcript,
      metadata: {
        start_time_unix_secs: now - duration,
        call_duration_secs: duration,
        phone_call: { direction: 'inbound', type: 'twilio', phone_number_id: o.phoneNumberId, agent_number: o.phone, external_number: o.from, call_sid: `CA${hex(16)}` },
      },
      analysis: { call_successful: 'success', transcript_summary: '', data_collection_results: o.dataCollectionResults ?? {} },
    },
  };
  const body = JSON.stringify(payload);
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (o.secret) headers['elevenlabs-signature'] = postCallSignature(o.secret, body, o.timestamp ?? now);
  return post(trimUrl(o.url) + POST_CALL_PATH, body, headers, !!o.secret);
}

/**
 * Reads a transcript file: a JSON array of turns (`{role, message}`), a JSON object with `transcript` and
 * optionally `data_collection_results` and `call_duration_secs`, or text lines `agent: ...` / `user: ...`.
 * @example
 * parseTranscript('agent: Hello!\nuser: I need a table for two') // { transcript: [{ role: 'agent', ... }, ...] }
 */
export function parseTranscript(text: string, file: string): { transcript: TranscriptTurn[]; dataCollectionResults?: Record<string, unknown>; callDurationSecs?: number } {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    // The text as written (less a byte-order mark), so that a fault's line and column are the file's own.
    const json = text.replace(/^\uFEFF/, '');
    let parsed: unknown;
    try {
      parsed = JSON.parse(json);
    } catch (err) {
      throw new WeirError('INVALID_INPUT', `${file} is not valid JSON: ${jsonSyntaxProblem(json, err)}`);
    }
    const obj = (Array.isArray(parsed) ? { transcript: parsed } : parsed) as Record<string, unknown>;
    if (!Array.isArray(obj.transcript)) throw new WeirError('INVALID_INPUT', `${file}: expected an array of turns or an object with "transcript"`);
    const turns = obj.transcript.map((t, i) => {
      if (typeof t === 'string') return { role: 'user', message: t };
      if (!t || typeof (t as TranscriptTurn).message !== 'string') throw new WeirError('INVALID_INPUT', `${file}: turn ${i + 1} needs a "message" string`);
      return { ...(t as TranscriptTurn), role: (t as TranscriptTurn).role ?? 'user' };
    });
    const duration = obj.call_duration_secs;
    return {
      transcript: timed(turns),
      dataCollectionResults: (obj.data_collection_results as Record<string, unknown>) ?? undefined,
      callDurationSecs: typeof duration === 'number' ? duration : undefined,
    };
  }
  const turns = trimmed
    .split(/\r?\n/)
    .filter((line) => line.trim())
    .map((line) => {
      const m = /^\s*(agent|user)\s*:\s*(.*)$/i.exec(line);
      return m ? { role: m[1].toLowerCase(), message: m[2] } : { role: 'user', message: line.trim() };
    });
  if (!turns.length) throw new WeirError('INVALID_INPUT', `${file} holds no conversation`);
  return { transcript: timed(turns) };
}

/** Gives turns without a time one a few seconds after the previous turn, as in a real call. */
function timed(turns: TranscriptTurn[]): TranscriptTurn[] {
  let t = 0;
  return turns.map((turn) => {
    t = typeof turn.time_in_call_secs === 'number' ? turn.time_in_call_secs : t + 3;
    return { ...turn, time_in_call_secs: t };
  });
}
