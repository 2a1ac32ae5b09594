import { WeirError } from '../../errors.js';
import { SECRET } from '../../providers/credentials.js';
import type { HostRequest, HostResponse, Route } from '../../types/http.js';
import type { TriggerRuntime } from '../define.js';
import { startFlows, type Started } from './dispatch.js';
import { EXECUTIONS_HEADER, POST_CALL_PATH, SMS_PATH, callFlows, smsFlows, trimUrl } from './flows.js';
import { verifyPostCallSignature, verifyTwilioSignature } from './signatures.js';

/** What the telephony routes use of the trigger runtime. */
export type TelephonyDeps = Pick<TriggerRuntime, 'config' | 'voiceAgents' | 'decode' | 'dispatcher' | 'bus'> & { runtime: Pick<TriggerRuntime['runtime'], 'limiter'> };

/** The form type a Twilio body is read as: the request's own (its charset kept), else a plain form. */
const formType = (contentType: string | undefined) =>
  contentType && /^application\/x-www-form-urlencoded\b/i.test(contentType) ? contentType : 'application/x-www-form-urlencoded';

/** A decoded body's value, awaited only when decoding needed a promise. */
async function bodyOf(rt: Pick<TriggerRuntime, 'decode'>, req: HostRequest, contentType: string): Promise<unknown> {
  const decoded = rt.decode(req, contentType);
  return (decoded instanceof Promise ? await decoded : decoded).value;
}

/** What starting a telephony event's flows uses. */
const intakeOf = (deps: TelephonyDeps) => ({ limiter: deps.runtime.limiter, dispatcher: deps.dispatcher, bus: deps.bus });

const EMPTY_TWIML = '<?xml version="1.0" encoding="UTF-8"?><Response></Response>';

/**
 * The URL Twilio signed: the request as it reached the host (path and query text untouched: re-encoding
 * `%20` or `~` would change the signed bytes) on the public URL the host is known by.
 */
function signedUrl(req: HostRequest, publicUrl: string | undefined): string {
  const base = req.publicUrl ?? publicUrl ?? `http://${req.headers.host ?? '127.0.0.1'}`;
  const query = req.rawQuery ?? formQuery(req.query);
  // The origin only: the path is the one the request arrived with, including the prefix weir is mounted at.
  return new URL(trimUrl(base)).origin + (req.base ?? '') + req.path + (query ? `?${query}` : '');
}

/** The query of a request built without its text (an embedder's own adapter): as a form encodes it. */
function formQuery(query: HostRequest['query']): string {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) for (const one of Array.isArray(v) ? v : [v]) form.append(k, one);
  return form.toString();
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

const started = (list: Started[]) => ({ [EXECUTIONS_HEADER]: list.map((s) => s.executionId).join(',') });

/**
 * Twilio's incoming-message webhook: checks `X-Twilio-Signature` when `TWILIO_AUTH_TOKEN` is set, starts
 * every published flow whose `sms_received_trigger.phoneNumber` is `To`, and answers empty TwiML.
 */
const smsRoute = (deps: TelephonyDeps, intake = intakeOf(deps)): Route => ({
  methods: ['POST'],
  path: SMS_PATH,
  async handle(req): Promise<HostResponse> {
    const receivedAt = new Date().toISOString();
    const { config, voiceAgents } = deps;
    // Decoded as every route decodes a form (content coding, charset): the signature covers the decoded fields.
    const params = (await bodyOf(deps, req, formType(req.headers['content-type']))) as Record<string, string | string[]>;
    const authToken = (await voiceAgents.secrets())[SECRET.twilioToken];
    if (authToken && !verifyTwilioSignature(authToken, signedUrl(req, config.publicUrl), params, req.headers['x-twilio-signature'])) {
      throw new WeirError('FORBIDDEN', 'X-Twilio-Signature does not match this request (signed for the public URL of the host)');
    }
    const to = first(params.To);
    const from = first(params.From);
    if (!to || !from) throw new WeirError('INVALID_INPUT', 'an incoming message needs the form fields From and To');
    const input = {
      message_body: first(params.Body) ?? '',
      sending_number: from,
      receiving_number: to,
      received_timestamp: receivedAt,
      message_sid: first(params.MessageSid) ?? first(params.SmsSid) ?? null,
    };
    const list = await startFlows(intake, smsFlows(await voiceAgents.telephonyFlows(), to), input, 'sms');
    return { status: 200, headers: { 'content-type': 'text/xml; charset=utf-8', ...started(list) }, body: EMPTY_TWIML };
  },
});

interface PostCall {
  type?: string;
  data?: {
    agent_id?: string;
    conversation_id?: string;
    transcript?: unknown[];
    metadata?: { call_duration_secs?: number; phone_call?: { phone_number_id?: string; agent_number?: string; external_number?: string; call_sid?: string } };
    analysis?: { data_collection_results?: Record<string, unknown> };
  };
}

/**
 * The voice provider's post-call webhook (ElevenLabs `post_call_transcription`): checks
 * `ElevenLabs-Signature` when `ELEVENLABS_WEBHOOK_SECRET` is set (bad: 401, older than 30 minutes: 403),
 * then starts the published flows whose `inbound_call_trigger` names the call's agent and number.
 */
const postCallRoute = (deps: TelephonyDeps, intake = intakeOf(deps)): Route => ({
  methods: ['POST'],
  path: POST_CALL_PATH,
  async handle(req): Promise<HostResponse> {
    const { voiceAgents } = deps;
    const secret = (await voiceAgents.secrets())[SECRET.elevenlabsWebhook];
    if (secret) {
      const check = verifyPostCallSignature(secret, req.rawBody, req.headers['elevenlabs-signature']);
      if (check === 'stale') throw new WeirError('FORBIDDEN', 'ElevenLabs-Signature is older than 30 minutes (a replayed request?)');
      if (check !== 'ok') throw new WeirError('UNAUTHORIZED', `ElevenLabs-Signature is ${check === 'missing' ? 'missing' : 'not valid for this body'}`);
    }
    // The signature covers the bytes as sent; the body is then read as every JSON body is.
    const event = (await bodyOf(deps, req, 'application/json')) as PostCall;
    // Audio and call-initiation-failure events are acknowledged so the provider does not retry them.
    if (event?.type !== 'post_call_transcription') return { status: 200, body: { received: true, ignored: String(event?.type), executions: [] } };
    const data = event.data ?? {};
    const call = data.metadata?.phone_call;
    if (!data.agent_id) throw new WeirError('INVALID_INPUT', 'post_call_transcription without data.agent_id');
    const ids = [call?.phone_number_id, call?.agent_number].filter((x): x is string => !!x);
    const mapping = call?.agent_number ? await voiceAgents.inboundMapping(call.agent_number) : null;
    if (mapping?.call?.twilioSid) ids.push(mapping.call.twilioSid);
    const input = {
      callSid: call?.call_sid ?? null,
      from: call?.external_number ?? null,
      to: call?.agent_number ?? null,
      transcript: data.transcript ?? [],
      data_collection_results: data.analysis?.data_collection_results ?? {},
      call_duration_secs: data.metadata?.call_duration_secs ?? null,
      conversation_id: data.conversation_id ?? null,
      agent_id: data.agent_id,
    };
    const flows = ids.length ? callFlows(await voiceAgents.telephonyFlows(), data.agent_id, ids) : [];
    const list = await startFlows(intake, flows, input, 'call');
    return { status: 200, headers: started(list), body: { received: true, executions: list } };
  },
});


/** Twilio's incoming-message webhook (`sms_received_trigger`), signature-checked when `TWILIO_AUTH_TOKEN` is set. */
export const smsRoutes = (deps: TelephonyDeps): Route[] => [smsRoute(deps)];

/** The voice provider's post-call webhook (`inbound_call_trigger`), signature-checked when the secret is set. */
export const postCallRoutes = (deps: TelephonyDeps): Route[] => [postCallRoute(deps)];
