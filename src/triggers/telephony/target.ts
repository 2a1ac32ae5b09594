import { WeirError } from '../../errors.js';
import type { VoiceAgents } from '../../resources/voice-agents/index.js';
import { telephonyTrigger } from './flows.js';

/**
 * Which agent and voice-provider number id a simulated call on `phone` carries: `--agent`, else what
 * `configure-inbound` recorded, else the voice provider's assignment, else the one agent that the published
 * call flows of this number name. The number id falls back to the E.164 number (which flows may name).
 * @example
 * const { agentId, phoneNumberId } = await callTarget(weir.voiceAgents, '+15551234567')
 */
export async function callTarget(voiceAgents: Pick<VoiceAgents, 'inboundMapping' | 'phones' | 'telephonyFlows'>, phone: string, agent?: string): Promise<{ agentId: string; phoneNumberId: string }> {
  const mapping = await voiceAgents.inboundMapping(phone);
  let agentId = agent ?? mapping?.call?.agentId;
  let phoneNumberId = mapping?.call?.phoneNumberId;
  if (!agentId || !phoneNumberId) {
    // Without provider credentials the simulation still works on what weir knows itself.
    const numbers = await voiceAgents.phones().catch((err) => {
      if (err instanceof WeirError && err.code === 'INVALID_CONFIG') return [];
      throw err;
    });
    const number = numbers.find((p) => p.phoneNumber === phone);
    phoneNumberId ??= number?.id;
    agentId ??= number?.agentId ?? undefined;
  }
  phoneNumberId ??= phone;
  if (!agentId) {
    const agents = new Set<string>();
    for (const flow of await voiceAgents.telephonyFlows()) {
      const t = telephonyTrigger(flow.config);
      if (t?.kind === 'call' && [phone, phoneNumberId].includes(t.config.phoneNumberId as string)) agents.add(String(t.config.agentId));
    }
    if (agents.size === 1) agentId = [...agents][0];
  }
  if (!agentId) {
    throw new WeirError('INVALID_INPUT', `no voice agent is known to answer ${phone}`, {
      hints: ['give one with --agent <agent-id>, or run `weir voice-agents configure-inbound` first'],
    });
  }
  return { agentId, phoneNumberId };
}
