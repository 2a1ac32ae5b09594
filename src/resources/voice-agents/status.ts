import { twilioCredentials, SECRET } from '../../providers/index.js';
import { SMS_PATH, telephonyTrigger, trimUrl } from '../../triggers/telephony/flows.js';
import type { CallMapping, InboundMapping, ProviderGetters, SmsMapping, VoiceAgentsOptions } from './types.js';

/** One part (calls or messages) of a number's configuration, compared with what the providers hold. */
type Checked<M> = M & { agrees: boolean; problems: string[] };

/** What `inbound-status` shows. `agrees` is null when nothing is configured. */
export interface InboundStatus {
  phone: string;
  configured: boolean;
  agrees: boolean | null;
  call: Checked<CallMapping & { providerAgentId: string | null }> | null;
  sms: Checked<SmsMapping & { twilioSmsUrl: string | null }> | null;
}

interface StatusDeps extends VoiceAgentsOptions {
  providers: ProviderGetters;
  mapping(phone: string): Promise<InboundMapping | null>;
}

async function checkCall(phone: string, call: CallMapping, deps: StatusDeps): Promise<InboundStatus['call']> {
  const problems: string[] = [];
  const flow = await deps.workflows.findPublished(call.flowId);
  const trigger = flow && telephonyTrigger(flow.config);
  if (!flow) problems.push(`workflow ${call.flowName} (${call.flowId}) is no longer published`);
  else if (trigger?.kind !== 'call' || trigger.config.agentId !== call.agentId) {
    problems.push(`the published ${flow.name} no longer has an inbound_call_trigger for agent ${call.agentId}`);
  }
  const voice = await deps.providers.voice();
  if (voice.name !== call.provider) problems.push(`configured at ${call.provider}, but providers.voice is now ${voice.name}`);
  const number = (await voice.listPhoneNumbers()).find((p) => p.phoneNumber === phone);
  const providerAgentId = number?.agentId ?? null;
  if (!number) problems.push(`${voice.name} does not know ${phone}`);
  else if (providerAgentId !== call.agentId) problems.push(`${voice.name} has ${providerAgentId ? `agent ${providerAgentId}` : 'no agent'} answering ${phone}`);
  return { ...call, providerAgentId, agrees: problems.length === 0, problems };
}

async function checkSms(phone: string, sms: SmsMapping, deps: StatusDeps): Promise<InboundStatus['sms']> {
  const problems: string[] = [];
  const flow = await deps.workflows.findPublished(sms.flowId);
  const trigger = flow && telephonyTrigger(flow.config);
  if (!flow) problems.push(`workflow ${sms.flowName} (${sms.flowId}) is no longer published`);
  else if (trigger?.kind !== 'sms' || trigger.config.phoneNumber !== phone) problems.push(`the published ${flow.name} no longer has an sms_received_trigger on ${phone}`);
  const publicUrl = deps.config.publicUrl;
  if (publicUrl && trimUrl(publicUrl) + SMS_PATH !== sms.smsUrl) problems.push(`publicUrl changed since configure-inbound (now ${publicUrl}): run it again`);
  let twilioSmsUrl: string | null = null;
  if (!(await twilioCredentials(deps))) {
    problems.push(`cannot ask Twilio: set the secrets ${SECRET.twilioSid} and ${SECRET.twilioToken}`);
  } else {
    const number = (await (await deps.providers.telephony()).listNumbers()).find((n) => n.phoneNumber === phone);
    twilioSmsUrl = number?.smsUrl ?? null;
    if (!number) problems.push(`${phone} is no longer a number of the Twilio account`);
    else if (number.smsUrl !== sms.smsUrl) problems.push(`Twilio sends its messages to ${number.smsUrl || '(no SmsUrl)'}`);
  }
  return { ...sms, twilioSmsUrl, agrees: problems.length === 0, problems };
}

/**
 * Compares a number's recorded inbound configuration with the published flows and the providers.
 * @example
 * const s = await inboundStatus('+15551234567', deps) // { configured: true, agrees: false, sms: { problems: [...] } }
 */
export async function inboundStatus(phone: string, deps: StatusDeps): Promise<InboundStatus> {
  const m = await deps.mapping(phone);
  const call = m?.call ? await checkCall(phone, m.call, deps) : null;
  const sms = m?.sms ? await checkSms(phone, m.sms, deps) : null;
  const parts = [call, sms].filter((p) => p !== null);
  return { phone, configured: parts.length > 0, agrees: parts.length ? parts.every((p) => p.agrees) : null, call, sms };
}
