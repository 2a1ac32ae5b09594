import { WeirError } from '../../errors.js';
import { createProviderClient } from '../http.js';
import type { PhoneImport, VoiceAgent, VoiceAgentInput, VoicePhoneNumber, VoiceProvider } from '../types.js';

export const ELEVENLABS_URL = 'https://api.elevenlabs.io';

export interface ElevenLabsOptions {
  apiKey: string;
  baseUrl?: string;
  timeoutMs?: number;
}

// The documented response shapes, as far as weir reads them.
interface ApiAgent {
  agent_id: string;
  name?: string;
  created_at_unix_secs?: number;
  metadata?: { created_at_unix_secs?: number };
  conversation_config?: { agent?: { first_message?: string; prompt?: { prompt?: string } }; tts?: { voice_id?: string } };
}
interface ApiPhone {
  phone_number_id: string;
  phone_number: string;
  label?: string;
  provider?: string;
  assigned_agent?: { agent_id?: string; agent_name?: string } | null;
}

const unixToIso = (secs?: number) => (typeof secs === 'number' ? new Date(secs * 1000).toISOString() : undefined);

function toAgent(a: ApiAgent): VoiceAgent {
  const conv = a.conversation_config;
  return {
    id: a.agent_id,
    name: a.name ?? '',
    voice: conv?.tts?.voice_id,
    prompt: conv?.agent?.prompt?.prompt,
    firstMessage: conv?.agent?.first_message,
    createdAt: unixToIso(a.metadata?.created_at_unix_secs ?? a.created_at_unix_secs),
  };
}

const toPhone = (p: ApiPhone): VoicePhoneNumber => ({
  id: p.phone_number_id,
  phoneNumber: p.phone_number,
  label: p.label,
  provider: p.provider ?? 'twilio',
  agentId: p.assigned_agent?.agent_id ?? null,
  agentName: p.assigned_agent?.agent_name ?? null,
});

/** The agent fields in ElevenLabs' nesting; absent fields are left out so PATCH changes only what was given. */
function agentBody(input: VoiceAgentInput): Record<string, unknown> {
  const agent: Record<string, unknown> = {};
  if (input.prompt !== undefined) agent.prompt = { prompt: input.prompt };
  if (input.firstMessage !== undefined) agent.first_message = input.firstMessage;
  const conversation: Record<string, unknown> = {};
  if (Object.keys(agent).length) conversation.agent = agent;
  if (input.voice !== undefined) conversation.tts = { voice_id: input.voice };
  return { ...(input.name !== undefined ? { name: input.name } : {}), ...(Object.keys(conversation).length ? { conversation_config: conversation } : {}) };
}

/**
 * The ElevenLabs Agents provider: a client of the documented `/v1/convai` REST API (header `xi-api-key`).
 * @example
 * const voice = createElevenLabsProvider({ apiKey: secrets.ELEVENLABS_API_KEY })
 * const agent = await voice.createAgent({ name: 'Front desk', prompt: 'You take bookings.' })
 */
export function createElevenLabsProvider(options: ElevenLabsOptions): VoiceProvider {
  const api = createProviderClient({
    service: 'ElevenLabs',
    baseUrl: options.baseUrl ?? ELEVENLABS_URL,
    headers: { 'xi-api-key': options.apiKey },
    timeoutMs: options.timeoutMs,
    credentialHint: 'check the secret ELEVENLABS_API_KEY (`weir secrets set ELEVENLABS_API_KEY <key>`)',
    baseUrlKey: 'providers.elevenlabs.baseUrl',
  });
  const agentPath = (id: string) => `/v1/convai/agents/${encodeURIComponent(id)}`;

  async function listPhoneNumbers(): Promise<VoicePhoneNumber[]> {
    const body = await api.request<ApiPhone[] | { phone_numbers?: ApiPhone[] }>('GET', '/v1/convai/phone-numbers');
    return (Array.isArray(body) ? body : body?.phone_numbers ?? []).map(toPhone);
  }

  return {
    name: 'elevenlabs',
    listPhoneNumbers,

    async listAgents() {
      const agents: VoiceAgent[] = [];
      const seen = new Set<string>();
      let cursor: string | undefined;
      do {
        const page = await api.request<{ agents?: ApiAgent[]; has_more?: boolean; next_cursor?: string | null }>('GET', '/v1/convai/agents', {
          query: { page_size: 100, cursor },
        });
        agents.push(...(page?.agents ?? []).map(toAgent));
        // A cursor seen before would loop forever on a misbehaving server.
        cursor = page?.has_more && page.next_cursor && !seen.has(page.next_cursor) ? page.next_cursor : undefined;
        if (cursor) seen.add(cursor);
      } while (cursor);
      return agents;
    },

    async getAgent(id) {
      return toAgent(await api.request<ApiAgent>('GET', agentPath(id)));
    },

    async createAgent(input) {
      const body = agentBody(input);
      // ElevenLabs requires conversation_config even when every field takes its default.
      const created = await api.request<{ agent_id?: string }>('POST', '/v1/convai/agents/create', { json: { conversation_config: {}, ...body } });
      if (!created?.agent_id) throw new WeirError('PROVIDER', 'ElevenLabs created an agent but answered without its agent_id');
      return { id: created.agent_id, name: input.name, voice: input.voice, prompt: input.prompt, firstMessage: input.firstMessage };
    },

    async updateAgent(id, input) {
      const updated = await api.request<ApiAgent | undefined>('PATCH', agentPath(id), { json: agentBody(input) });
      return updated?.agent_id ? toAgent(updated) : toAgent(await api.request<ApiAgent>('GET', agentPath(id)));
    },

    async deleteAgent(id) {
      await api.request('DELETE', agentPath(id));
    },

    async importPhoneNumber(input: PhoneImport) {
      if (!input.twilio) {
        throw new WeirError('INVALID_CONFIG', `importing ${input.phoneNumber} into ElevenLabs needs the Twilio account`, {
          hints: ['set `weir secrets set TWILIO_ACCOUNT_SID <sid>` and `weir secrets set TWILIO_AUTH_TOKEN <token>`'],
        });
      }
      const created = await api.request<{ phone_number_id?: string }>('POST', '/v1/convai/phone-numbers', {
        json: { provider: 'twilio', phone_number: input.phoneNumber, label: input.label, sid: input.twilio.accountSid, token: input.twilio.authToken },
      });
      if (!created?.phone_number_id) throw new WeirError('PROVIDER', 'ElevenLabs imported the number but answered without its phone_number_id');
      return { id: created.phone_number_id, phoneNumber: input.phoneNumber, label: input.label, provider: 'twilio', agentId: null, agentName: null };
    },

    async assignAgent(phoneNumberId, agentId) {
      const path = `/v1/convai/phone-numbers/${encodeURIComponent(phoneNumberId)}`;
      const updated = await api.request<ApiPhone | undefined>('PATCH', path, { json: { agent_id: agentId } });
      if (updated?.phone_number_id) return toPhone(updated);
      const all = await listPhoneNumbers();
      const found = all.find((p) => p.id === phoneNumberId);
      if (!found) throw new WeirError('NOT_FOUND', `ElevenLabs knows no phone number ${phoneNumberId}`);
      return found;
    },
  };
}
