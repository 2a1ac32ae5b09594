import { WeirError } from '../../errors.js';
import { E164 } from '../sms/node.js';
import type { WorkflowConfig, FlowNode, PublishedWorkflow } from '../../resources/workflows/index.js';

/** Host paths of the telephony webhooks (Twilio SMS and the voice post-call). */
export const SMS_PATH = '/telephony/twilio/sms';
export const POST_CALL_PATH = '/telephony/voice/post-call';

/** Response header listing the execution ids a telephony request started, comma-separated. */
export const EXECUTIONS_HEADER = 'x-weir-executions';

/** The two telephony triggers and their node types. */
export const TRIGGER_TYPES = { call: 'inbound_call_trigger', sms: 'sms_received_trigger' } as const;
export type TelephonyKind = keyof typeof TRIGGER_TYPES;

/**
 * Refuses a phone number that is not E.164, naming the format.
 * @example
 * assertE164('+15551234567') // ok
 * assertE164('555-1234')     // throws INVALID_INPUT
 */
export function assertE164(phone: string | undefined, what = 'phone number'): string {
  if (!phone || !E164.test(phone)) {
    throw new WeirError('INVALID_INPUT', `${what} ${JSON.stringify(phone ?? '')} is not in E.164 format: "+", the country code and the number, digits only (e.g. +15551234567)`);
  }
  return phone;
}

/** The flow's telephony trigger node and its kind, or null for any other trigger. */
export function telephonyTrigger(config: WorkflowConfig): { kind: TelephonyKind; node: FlowNode; config: Record<string, unknown> } | null {
  for (const node of config.nodes) {
    if (node.type === TRIGGER_TYPES.call) return { kind: 'call', node, config: node.config ?? {} };
    if (node.type === TRIGGER_TYPES.sms) return { kind: 'sms', node, config: node.config ?? {} };
  }
  return null;
}

/** Published flows whose `sms_received_trigger.phoneNumber` is the receiving number. */
export const smsFlows = (flows: PublishedWorkflow[], to: string): PublishedWorkflow[] =>
  flows.filter((f) => {
    const t = telephonyTrigger(f.config);
    return t?.kind === 'sms' && t.config.phoneNumber === to;
  });

/**
 * Published flows whose `inbound_call_trigger` names the call's agent and one of the called number's ids
 * (the voice provider's `phone_number_id`, the E.164 number, or its Twilio SID).
 */
export const callFlows = (flows: PublishedWorkflow[], agentId: string, numberIds: string[]): PublishedWorkflow[] =>
  flows.filter((f) => {
    const t = telephonyTrigger(f.config);
    return t?.kind === 'call' && t.config.agentId === agentId && numberIds.includes(t.config.phoneNumberId as string);
  });

/** `https://x.example/` -> `https://x.example`: URLs are built by appending a path. */
export const trimUrl = (url: string): string => url.replace(/\/+$/, '');
