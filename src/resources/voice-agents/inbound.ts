import { WeirError } from '../../errors.js';
import { twilioCredentials, type VoiceProvider } from '../../providers/index.js';
import { POST_CALL_PATH, SMS_PATH, assertE164, telephonyTrigger, trimUrl } from '../../triggers/telephony/flows.js';
import type { PublishedWorkflow } from '../workflows/index.js';
import { inboundStatus } from './status.js';
import type { InboundMapping, ProviderGetters, VoiceAgentsOptions } from './types.js';

/** What `configure-inbound` did. */
export interface InboundConfigured {
  phone: string;
  kind: 'call' | 'sms';
  flowId: string;
  flowName: string;
  /** Call: the voice provider, the number's id there and the agent now answering it. */
  provider?: string;
  phoneNumberId?: string;
  agentId?: string;
  /** Call: true when the number was imported into the voice provider first. */
  imported?: boolean;
  /** Call: where the voice provider's post-call webhook must point (a workspace setting there). */
  postCallUrl?: string;
  /** SMS: the Twilio number and its new SmsUrl. */
  twilioSid?: string;
  smsUrl?: string;
  warnings: string[];
}

const isNotFound = (err: unknown) => err instanceof WeirError && err.code === 'NOT_FOUND';

/** Points the number back at its previous agent; detaches it when that agent is gone. */
async function restoreAgent(voice: VoiceProvider, phoneNumberId: string, previous: string | null): Promise<string | null> {
  for (const agent of previous ? [previous, null] : [null]) {
    try {
      await voice.assignAgent(phoneNumberId, agent);
      return agent;
    } catch (err) {
      if (!isNotFound(err)) throw err;
    }
  }
  return null; // the provider no longer knows the number: nothing left to undo there
}

/**
 * Inbound configuration of phone numbers: which published flow a number's calls or messages
 * run, set at the providers (agent assignment at the voice provider, SmsUrl at Twilio) and recorded in the
 * cloud mount so that `inbound-status` can compare and `reset-inbound` can undo.
 * @example
 * const inbound = createInbound(options, providers)
 * await inbound.configure('+15551234567', 'sms-orders')
 */
export function createInbound(options: VoiceAgentsOptions, providers: ProviderGetters) {
  const { storage, config, workflows, secrets } = options;
  const store = storage.view('cloud', 'telephony-inbound');
  const key = (phone: string) => encodeURIComponent(phone);
  const get = (phone: string) => store.getItem<InboundMapping>(key(phone));
  const put = (m: InboundMapping) => (m.call || m.sms ? store.setItem(key(m.phone), m) : store.removeItem(key(m.phone)));

  async function publishedFlow(ref: string) {
    const flow = await workflows.findPublished(ref);
    if (!flow) {
      const draft = await workflows.getLocal(ref); // an unknown ref: NOT_FOUND naming the workflows nearest to it
      throw new WeirError('RULE', `workflow "${draft.name}" is not published`, { hints: [`publish it first: \`weir workflows publish ${draft.id}\``] });
    }
    const trigger = telephonyTrigger(flow.config);
    if (!trigger) {
      const type = flow.config.nodes[0]?.type ?? 'no';
      throw new WeirError('RULE', `workflow "${flow.name}" is published with a ${type} trigger; configure-inbound needs an inbound_call_trigger or an sms_received_trigger`);
    }
    return { flow, trigger };
  }

  function publicUrl(): string {
    const url = config.publicUrl;
    if (!url) {
      throw new WeirError('INVALID_CONFIG', 'configure-inbound needs the public URL at which Twilio and the voice provider reach this host', {
        hints: ['set it in weir.config.json of the home: {"publicUrl": "https://weir.example.com"}', 'and start the host with `weir serve --public-url https://weir.example.com`'],
      });
    }
    if (!/^https?:\/\/[^/]/.test(url)) throw new WeirError('INVALID_CONFIG', `publicUrl in weir.config.json must be an http(s) URL, got ${JSON.stringify(url)}`);
    return trimUrl(url);
  }

  async function configureCall(phone: string, flow: PublishedWorkflow, trigger: Record<string, unknown>, base: string): Promise<InboundConfigured> {
    const voice = await providers.voice();
    const agentId = String(trigger.agentId);
    await voice.getAgent(agentId).catch((err) => {
      if (!isNotFound(err)) throw err;
      throw new WeirError('NOT_FOUND', `the flow's agent "${agentId}" is not a voice agent of ${voice.name}`, { hints: ['run `weir voice-agents list`, then set inbound_call_trigger.agentId and publish again'] });
    });
    const twilioAccount = await twilioCredentials({ secrets });
    const twilioSid = twilioAccount ? (await (await providers.telephony()).listNumbers()).find((n) => n.phoneNumber === phone)?.sid : undefined;
    let number = (await voice.listPhoneNumbers()).find((p) => p.phoneNumber === phone);
    const imported = !number;
    number ??= await voice.importPhoneNumber({ phoneNumber: phone, label: `weir: ${flow.name}`, twilio: twilioAccount ?? undefined });
    const existing = (await get(phone)) ?? { phone };
    const previousAgentId = existing.call ? existing.call.previousAgentId : number.agentId !== agentId ? number.agentId : null;
    await voice.assignAgent(number.id, agentId);
    const call = { flowId: flow.id, flowName: flow.name, agentId, phoneNumberId: number.id, provider: voice.name, previousAgentId, configuredAt: new Date().toISOString() };
    await put({ ...existing, call: twilioSid ? { ...call, twilioSid } : call });
    const ids = [number.id, phone, ...(twilioSid ? [twilioSid] : [])];
    const warnings = ids.includes(trigger.phoneNumberId as string)
      ? []
      : [`the flow's inbound_call_trigger.phoneNumberId "${trigger.phoneNumberId}" is none of this number's ids (${ids.join(', ')}): its calls will not run the flow until it names one of them`];
    return { phone, kind: 'call', flowId: flow.id, flowName: flow.name, provider: voice.name, phoneNumberId: number.id, agentId, imported, postCallUrl: base + POST_CALL_PATH, warnings };
  }

  async function configureSms(phone: string, flow: PublishedWorkflow, trigger: Record<string, unknown>, base: string): Promise<InboundConfigured> {
    if (trigger.phoneNumber !== phone) {
      throw new WeirError('RULE', `workflow "${flow.name}" listens for SMS on ${trigger.phoneNumber}, not on ${phone}`, {
        hints: ['configure that number, or change sms_received_trigger.phoneNumber and publish again'],
      });
    }
    const twilio = await providers.telephony();
    const number = (await twilio.listNumbers()).find((n) => n.phoneNumber === phone);
    if (!number) {
      throw new WeirError('NOT_FOUND', `${phone} is not a number of the Twilio account ${twilio.accountSid}`, { hints: ['run `weir voice-agents twilio-numbers` to list its numbers'] });
    }
    const smsUrl = base + SMS_PATH;
    const existing = (await get(phone)) ?? { phone };
    const previousSmsUrl = existing.sms ? existing.sms.previousSmsUrl : number.smsUrl === smsUrl ? '' : number.smsUrl;
    await twilio.updateNumber(number.sid, { smsUrl });
    await put({ ...existing, sms: { flowId: flow.id, flowName: flow.name, twilioSid: number.sid, smsUrl, previousSmsUrl, configuredAt: new Date().toISOString() } });
    return { phone, kind: 'sms', flowId: flow.id, flowName: flow.name, twilioSid: number.sid, smsUrl, warnings: [] };
  }

  return {
    /** The recorded configuration of a number, or null. */
    get,

    /** Every recorded configuration. */
    async list(): Promise<InboundMapping[]> {
      const items = await Promise.all((await store.getKeys()).map((k) => store.getItem<InboundMapping>(k)));
      return items.filter((m): m is InboundMapping => !!m && typeof m === 'object');
    },

    /** Makes the number's calls (inbound_call_trigger) or messages (sms_received_trigger) run the flow. */
    async configure(phone: string, flowRef: string): Promise<InboundConfigured> {
      assertE164(phone);
      const { flow, trigger } = await publishedFlow(flowRef);
      const base = publicUrl();
      return trigger.kind === 'call' ? configureCall(phone, flow, trigger.config, base) : configureSms(phone, flow, trigger.config, base);
    },

    /** The recorded configuration compared with the providers and the published flows. */
    status: (phone: string) => inboundStatus(assertE164(phone), { ...options, providers, mapping: get }),

    /** Undoes `configure` at the providers (previous agent, previous SmsUrl) and forgets the record. */
    async reset(phone: string) {
      assertE164(phone);
      const m = await get(phone);
      if (!m) throw new WeirError('NOT_FOUND', `${phone} has no inbound configuration`, { hints: [`run \`weir voice-agents inbound-status ${phone}\``] });
      const undone: { phone: string; call: { phoneNumberId: string; agentId: string | null } | null; sms: { twilioSid: string; smsUrl: string } | null } = { phone, call: null, sms: null };
      if (m.call) {
        const agentId = await restoreAgent(await providers.voice(), m.call.phoneNumberId, m.call.previousAgentId);
        undone.call = { phoneNumberId: m.call.phoneNumberId, agentId };
        delete m.call;
        await put(m);
      }
      if (m.sms) {
        await (await providers.telephony()).updateNumber(m.sms.twilioSid, { smsUrl: m.sms.previousSmsUrl }).catch((err) => {
          if (!isNotFound(err)) throw err;
        });
        undone.sms = { twilioSid: m.sms.twilioSid, smsUrl: m.sms.previousSmsUrl };
        delete m.sms;
        await put(m);
      }
      return undone;
    },
  };
}

export type Inbound = ReturnType<typeof createInbound>;
