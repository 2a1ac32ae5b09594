import type { TwilioNumber, VoiceAgent, VoiceAgentInput, VoicePhoneNumber } from '../providers/index.js';
import type { InboundConfigured } from '../resources/voice-agents/inbound.js';
import type { InboundStatus } from '../resources/voice-agents/status.js';
import type { InboundMapping } from '../resources/voice-agents/types.js';
import type { PublishedWorkflow } from '../resources/workflows/types.js';

/** Where a Twilio webhook URL leads: to this weir host, to the voice provider, elsewhere, or nowhere. */
export type WebhookTarget = 'weir' | 'voice provider' | 'other' | 'none';

/** A Twilio number with where its calls and messages go (`twilio-numbers`). */
export interface TwilioNumberStatus extends TwilioNumber {
  voice: WebhookTarget;
  sms: WebhookTarget;
  /** The flow its messages run, when configured through weir. */
  smsFlow: string | null;
}

/**
 * Voice agents and the inbound side of phone numbers (`weir.voiceAgents`), over the provider named by
 * `providers.voice` and Twilio.
 * @example
 * const agent = await weir.voiceAgents.create('Front desk', { prompt: 'You take bookings.' })
 * await weir.voiceAgents.configureInbound('+15551234567', 'after-call')
 */
export interface VoiceAgents {
  /** The voice provider in use (`local`, `elevenlabs`), checked against the credentials it needs. */
  provider(): Promise<string>;
  list(): Promise<VoiceAgent[]>;
  get(id: string): Promise<VoiceAgent>;
  create(name: string, input?: Omit<VoiceAgentInput, 'name'>): Promise<VoiceAgent>;
  update(id: string, input: VoiceAgentInput): Promise<VoiceAgent>;
  delete(id: string): Promise<{
    id: string;
    deleted: boolean;
  }>;
  /** Numbers known to the voice provider, with the agent answering each. */
  phones(): Promise<VoicePhoneNumber[]>;
  /** Makes a number known to the voice provider (ElevenLabs imports it from the Twilio account). */
  importPhone(phone: string, label?: string): Promise<VoicePhoneNumber>;
  /** The Twilio account's numbers with where their calls and messages go. */
  twilioNumbers(): Promise<TwilioNumberStatus[]>;
  configureInbound(phone: string, flowRef: string): Promise<InboundConfigured>;
  inboundStatus(phone: string): Promise<InboundStatus>;
  resetInbound(phone: string): Promise<{
    phone: string;
    call: {
      phoneNumberId: string;
      agentId: string | null;
    } | null;
    sms: {
      twilioSid: string;
      smsUrl: string;
    } | null;
  }>;
  /** The recorded inbound configuration of a number, or null (used by the host and the simulators). */
  inboundMapping(phone: string): Promise<InboundMapping | null>;
  /** Published flows with an inbound_call_trigger or sms_received_trigger (cached; used by the host). */
  telephonyFlows(): Promise<PublishedWorkflow[]>;
  /** The organization secrets (cached like the flows; the host checks signatures with them). */
  secrets(): Promise<Record<string, string>>;
}
