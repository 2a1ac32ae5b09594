import { WeirError } from '../../errors.js';
import { telephonyProvider, twilioCredentials, voiceProvider, type VoiceAgentInput } from '../../providers/index.js';
import { storageCached } from '../../triggers/telephony/cache.js';
import { SMS_PATH, assertE164, telephonyTrigger, trimUrl } from '../../triggers/telephony/flows.js';
import { createInbound } from './inbound.js';
import type { ProviderGetters, VoiceAgentsOptions } from './types.js';
import type { VoiceAgents, WebhookTarget, TwilioNumberStatus } from '../../types/voice-agents.js';

export type { VoiceAgents, WebhookTarget, TwilioNumberStatus } from '../../types/voice-agents.js';

export type { CallMapping, InboundMapping, SmsMapping, VoiceAgentsOptions } from './types.js';
export type { InboundConfigured } from './inbound.js';
export type { InboundStatus } from './status.js';

/** Where a webhook URL leads; `ours` tells whether it is this host's endpoint (null: weir has none there). */
function target(url: string, ours: ((parsed: URL) => boolean) | null): WebhookTarget {
  if (!url) return 'none';
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'other';
  }
  if (ours?.(parsed)) return 'weir';
  if (parsed.hostname === 'elevenlabs.io' || parsed.hostname.endsWith('.elevenlabs.io')) return 'voice provider';
  return 'other';
}

/**
 * Voice agents and the inbound side of phone numbers, over the provider named by
 * `providers.voice` (`local` by default) and Twilio. Credentials are read from the secrets at each call.
 * @example
 * const agent = await weir.voiceAgents.create('Front desk', { prompt: 'You take bookings.' })
 * await weir.voiceAgents.configureInbound('+15551234567', 'after-call')
 */
export function createVoiceAgents(options: VoiceAgentsOptions): VoiceAgents {
  const providers: ProviderGetters = {
    voice: () => voiceProvider(options),
    telephony: () => telephonyProvider(options),
  };
  const inbound = createInbound(options, providers);
  // What every SMS and post-call webhook reads, kept while storage is unchanged (see storageCached).
  const flows = storageCached(options.storage, ['workflows'], async () => (await options.workflows.listPublished()).filter((f) => telephonyTrigger(f.config)));
  const secrets = storageCached(options.storage, ['secrets'], options.secrets);

  return {
    /** The voice provider in use (`local`, `elevenlabs`), checked against the credentials it needs. */
    provider: async () => (await providers.voice()).name,
    list: async () => (await providers.voice()).listAgents(),
    get: async (id: string) => (await providers.voice()).getAgent(id),

    async create(name: string, input: Omit<VoiceAgentInput, 'name'> = {}) {
      if (!name.trim()) throw new WeirError('INVALID_INPUT', 'a voice agent name must not be empty');
      return (await providers.voice()).createAgent({ ...input, name });
    },

    async update(id: string, input: VoiceAgentInput) {
      if (Object.values(input).every((v) => v === undefined)) {
        throw new WeirError('USAGE', 'nothing to update', { hints: ['give at least one of --name, --voice, --prompt, --first-message'] });
      }
      if (input.name !== undefined && !input.name.trim()) throw new WeirError('INVALID_INPUT', 'a voice agent name must not be empty');
      return (await providers.voice()).updateAgent(id, input);
    },

    async delete(id: string) {
      await (await providers.voice()).deleteAgent(id);
      return { id, deleted: true };
    },

    /** Numbers known to the voice provider, with the agent answering each. */
    phones: async () => (await providers.voice()).listPhoneNumbers(),

    /** Makes a number known to the voice provider (ElevenLabs imports it from the Twilio account). */
    async importPhone(phone: string, label?: string) {
      assertE164(phone);
      const twilio = await twilioCredentials(options);
      return (await providers.voice()).importPhoneNumber({ phoneNumber: phone, label: label ?? phone, twilio: twilio ?? undefined });
    },

    /** The Twilio account's numbers with where their calls and messages go. */
    async twilioNumbers(): Promise<TwilioNumberStatus[]> {
      const [numbers, mappings] = await Promise.all([(await providers.telephony()).listNumbers(), inbound.list()]);
      const flows = new Map(mappings.filter((m) => m.sms).map((m) => [m.phone, m.sms!.flowName]));
      const publicUrl = options.config.publicUrl;
      // Without a configured publicUrl any host counts when the path is ours (tunnels change host names).
      const ownUrl = publicUrl ? trimUrl(publicUrl) + SMS_PATH : '';
      const smsEndpoint = URL.canParse(ownUrl) ? new URL(ownUrl).href : null;
      const isSmsEndpoint = (u: URL) => (smsEndpoint ? u.href === smsEndpoint : u.pathname === SMS_PATH);
      return numbers.map((n) => ({
        ...n,
        // Calls go to the voice provider, which reports to weir after the call: weir has no voice endpoint.
        voice: target(n.voiceUrl, null),
        sms: target(n.smsUrl, isSmsEndpoint),
        smsFlow: flows.get(n.phoneNumber) ?? null,
      }));
    },

    configureInbound: inbound.configure,
    inboundStatus: inbound.status,
    resetInbound: inbound.reset,
    /** The recorded inbound configuration of a number, or null (used by the host and the simulators). */
    inboundMapping: inbound.get,
    /** Published flows with an inbound_call_trigger or sms_received_trigger (cached; used by the host). */
    telephonyFlows: flows,
    /** The organization secrets (cached like the flows; the host checks signatures with them). */
    secrets,
  };
}

