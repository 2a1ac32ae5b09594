import { WeirError } from '../../errors.js';
import type { WeirConfig } from '../../config.js';
import { startFlows, type Started, type TelephonyIntake } from '../../triggers/telephony/dispatch.js';
import { EXECUTIONS_HEADER, POST_CALL_PATH, SMS_PATH, callFlows, smsFlows, trimUrl } from '../../triggers/telephony/flows.js';
import { verifyPostCallSignature, verifyTwilioSignature } from '../../triggers/telephony/signatures.js';
import { SECRET } from '../../providers/credentials.js';
import type { VoiceAgents } from '../../resources/voice-agents/index.js';
import { jsonSyntaxProblem } from '../../util/json-syntax.js';
import { parseForm } from '../body.js';
import type { HostRequest, HostResponse, Route } from '../types.js';

/** What the telephony routes use. */
export interface TelephonyDeps {
  config: Pick<WeirConfig, 'publicUrl'>;
  voiceAgents: Pick<VoiceAgents, 'secrets' | 'telephonyFlows' | 'inboundMapping'>;
  intake: TelephonyIntake;
}

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
const smsRoute = ({ config, voiceAgents, intake }: TelephonyDeps): Route => ({
  methods: ['POST'],
  path: SMS_PATH,
  async handle(req): Promise<HostResponse> {
    const receivedAt = new Date().toISOString();
    const params = parseForm(req.rawBody.toString('utf8'));
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
const postCallRoute = ({ voiceAgents, intake }: TelephonyDeps): Route => ({
  methods: ['POST'],
  path: POST_CALL_PATH,
  async handle(req): Promise<HostResponse> {
    const secret = (await voiceAgents.secrets())[SECRET.elevenlabsWebhook];
    if (secret) {
      const check = verifyPostCallSignature(secret, req.rawBody, req.headers['elevenlabs-signature']);
      if (check === 'stale') throw new WeirError('FORBIDDEN', 'ElevenLabs-Signature is older than 30 minutes (a replayed request?)');
      if (check !== 'ok') throw new WeirError('UNAUTHORIZED', `ElevenLabs-Signature is ${check === 'missing' ? 'missing' : 'not valid for this body'}`);
    }
    let event: PostCall;
    const text = req.rawBody.toString('utf8');
    try {
      event = JSON.parse(text);
    } catch (err) {
      throw new WeirError('INVALID_INPUT', `post-call body is not valid JSON: ${jsonSyntaxProblem(text, err)}`);
    }
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

/** The telephony routes: Twilio SMS and the voice post-call webhook, signature-checked when the secret is set. */
export const telephonyRoutes = (deps: TelephonyDeps): Route[] => [smsRoute(deps), postCallRoute(deps)];
