import { check, defineNode, type Problem } from '../../nodes/define.js';

/** A call on a telephony number, reported by the voice provider's post-call webhook. */
export const inboundCallTrigger = defineNode({
  type: 'inbound_call_trigger',
  docs: {
    summary: "Starts the flow when a call on a telephony number ends, from the voice provider's post-call report",
    output: '`{ callSid, from, to, transcript, data_collection_results, call_duration_secs, conversation_id, agent_id }`',
    example: { phoneNumberId: '+15551234567', agentId: 'agent_support' },
  },
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
