import { check, defineNode, type Problem } from '../define.js';
import { INPUT_PARAMS_CONFIG, validateInputParams } from './input-params.js';

/** A backend function the frontend calls with `callFlow(name, input)`. */
export const interfaceEventTrigger = defineNode({
  type: 'interface_event_trigger',
  trigger: true,
  config: INPUT_PARAMS_CONFIG,
  validate: validateInputParams,
});

/** Started by hand (`weir workflows run`). */
export const manualTrigger = defineNode({ type: 'manual_trigger', trigger: true, config: INPUT_PARAMS_CONFIG, validate: validateInputParams });

/** An HTTP request to the flow's token URL (`/trigger/<token>`; the token never changes). */
export const webhookTrigger = defineNode({
  type: 'webhook_trigger',
  trigger: true,
  config: {
    type: 'object',
    properties: {
      respondImmediately: {
        type: 'boolean',
        description: 'true (default): answer 200 {executionId, statusUrl} at once; false: answer with the first respond node, or the result',
      },
      responseTimeoutMs: { type: 'number', description: 'With respondImmediately false: how long the caller waits in milliseconds (default 30000)' },
      idempotencyHeader: { type: 'string', description: 'The header whose repeated value runs a delivery once (default Idempotency-Key)' },
      dedupeWindowMs: { type: 'number', description: 'How long such a value is remembered in milliseconds (default 24 h)' },
    },
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    for (const key of ['responseTimeoutMs', 'dedupeWindowMs']) {
      const v = config[key];
      if (v !== undefined && !(typeof v === 'number' && v > 0)) problems.push({ path: key, message: `"${key}" must be a positive number` });
    }
    return problems;
  },
});

/** A call on a telephony number, reported by the voice provider's post-call webhook. */
export const inboundCallTrigger = defineNode({
  type: 'inbound_call_trigger',
  trigger: true,
  config: {
    type: 'object',
    properties: {
      phoneNumberId: { type: 'string', description: "The called number: the voice provider's phone number id, the E.164 number or its Twilio SID" },
      agentId: { type: 'string', description: 'The voice agent that takes the calls' },
    },
    required: ['phoneNumberId', 'agentId'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    check.required(config, 'phoneNumberId', problems);
    check.required(config, 'agentId', problems);
    return problems;
  },
});

export const E164 = /^\+[1-9]\d{6,14}$/;

/** An SMS arriving on a number in international format. */
export const smsReceivedTrigger = defineNode({
  type: 'sms_received_trigger',
  trigger: true,
  config: {
    type: 'object',
    properties: { phoneNumber: { type: 'string', pattern: E164.source, description: 'The receiving number in E.164 format, e.g. +15551234567' } },
    required: ['phoneNumber'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    if (check.required(config, 'phoneNumber', problems) && !E164.test(config.phoneNumber as string)) {
      problems.push({ path: 'phoneNumber', message: 'phoneNumber must be in E.164 format, e.g. +15551234567' });
    }
    return problems;
  },
});
