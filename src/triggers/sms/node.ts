import { check, defineNode, type Problem } from '../../nodes/define.js';

/** A phone number in international (E.164) format. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** An SMS arriving on a number in international format. */
export const smsReceivedTrigger = defineNode({
  type: 'sms_received_trigger',
  docs: {
    summary: 'Starts the flow on an SMS arriving on a number',
    output: '`{ message_body, sending_number, receiving_number, received_timestamp, message_sid }`',
    example: { phoneNumber: '+15551234567' },
  },
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
