import type { WeirConfig } from '../../config.js';
import type { SecretSource, TelephonyProvider, VoiceProvider } from '../../providers/index.js';
import type { Storages } from '../../storage/index.js';
import type { Workflows } from '../workflows/index.js';

/** What the voice-agents manager needs from its weir instance. */
export interface VoiceAgentsOptions {
  storage: Storages;
  config: WeirConfig;
  workflows: Workflows;
  /** The organization secrets (credentials of the providers). */
  secrets: SecretSource;
}

/** Lazily built providers: credentials are read when a command needs them, not before. */
export interface ProviderGetters {
  voice(): Promise<VoiceProvider>;
  telephony(): Promise<TelephonyProvider>;
}

/** The calls of a number: the flow that runs after each call and the agent that answers it. */
export interface CallMapping {
  flowId: string;
  flowName: string;
  agentId: string;
  /** The voice provider's `phone_number_id`. */
  phoneNumberId: string;
  provider: string;
  /** The number's Twilio SID when Twilio credentials were set (a flow may name the number by it). */
  twilioSid?: string;
  /** The agent that answered before, restored by `reset-inbound`. */
  previousAgentId: string | null;
  configuredAt: string;
}

/** The messages of a number: the flow they run and the Twilio SmsUrl that brings them to weir. */
export interface SmsMapping {
  flowId: string;
  flowName: string;
  twilioSid: string;
  smsUrl: string;
  /** The SmsUrl before, restored by `reset-inbound`. */
  previousSmsUrl: string;
  configuredAt: string;
}

/** What `configure-inbound` recorded for one number (cloud mount, key = the E.164 number). */
export interface InboundMapping {
  phone: string;
  call?: CallMapping;
  sms?: SmsMapping;
}
