/** A conversational voice agent as weir shows it; `id` is the provider's `agent_id`. */
export interface VoiceAgent {
  id: string;
  name: string;
  voice?: string;
  prompt?: string;
  firstMessage?: string;
  createdAt?: string;
}

/** What `create` and `update` send; `update` sends only the fields given. */
export interface VoiceAgentInput {
  name?: string;
  voice?: string;
  prompt?: string;
  firstMessage?: string;
}

/** A phone number known to the voice provider, with the agent that answers its calls. */
export interface VoicePhoneNumber {
  /** The provider's `phone_number_id`. */
  id: string;
  /** E.164. */
  phoneNumber: string;
  label?: string;
  provider: string;
  agentId: string | null;
  agentName?: string | null;
}

/** What importing a telephony-provider number into the voice provider needs. */
export interface PhoneImport {
  phoneNumber: string;
  label: string;
  /** Twilio account SID and auth token (the voice provider answers calls on the account's number). */
  twilio?: { accountSid: string; authToken: string };
}

/**
 * A conversational voice-AI service (`providers.voice`): its agents and the numbers whose calls they answer.
 * Implementations: `local` (records in cloud storage) and `elevenlabs` (the ElevenLabs Agents REST API).
 */
export interface VoiceProvider {
  /** `local` or `elevenlabs`. */
  readonly name: string;
  listAgents(): Promise<VoiceAgent[]>;
  getAgent(id: string): Promise<VoiceAgent>;
  createAgent(input: VoiceAgentInput & { name: string }): Promise<VoiceAgent>;
  updateAgent(id: string, input: VoiceAgentInput): Promise<VoiceAgent>;
  deleteAgent(id: string): Promise<void>;
  listPhoneNumbers(): Promise<VoicePhoneNumber[]>;
  importPhoneNumber(input: PhoneImport): Promise<VoicePhoneNumber>;
  /** Makes `agentId` answer calls on the number (`null` detaches any agent). */
  assignAgent(phoneNumberId: string, agentId: string | null): Promise<VoicePhoneNumber>;
}

/** A number on the Twilio account with its webhook URLs. */
export interface TwilioNumber {
  sid: string;
  phoneNumber: string;
  friendlyName?: string;
  voiceUrl: string;
  smsUrl: string;
}

/** The telephony provider (Twilio): the account's numbers and where their calls and messages are sent. */
export interface TelephonyProvider {
  readonly accountSid: string;
  listNumbers(): Promise<TwilioNumber[]>;
  /** Sets the number's webhook URLs; an empty string clears one. */
  updateNumber(sid: string, urls: { voiceUrl?: string; smsUrl?: string }): Promise<TwilioNumber>;
}
