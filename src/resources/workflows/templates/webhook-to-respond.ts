import type { FlowTemplate } from './template.js';

/** A webhook that answers its caller itself: the greeting is made from the posted `name`. */
export const webhookToRespond: FlowTemplate = {
  name: 'webhook-to-respond',
  summary: 'a webhook that answers the caller with a greeting made from the posted {"name": ...}',
  config: () => ({
    nodes: [
      // respondImmediately false: the caller waits for the Respond node's answer.
      { id: 'webhook_trigger-1', type: 'webhook_trigger', label: 'Incoming request', config: { respondImmediately: false } },
      { id: 'set-1', type: 'set', label: 'Greeting', config: { values: { greeting: 'Hello, {{ body.name ?? "stranger" }}!' } } },
      { id: 'respond-1', type: 'respond', label: 'Answer', config: { status: 200, body: '{{ $node.set-1.data }}' } },
    ],
    edges: [
      { id: 'e1', source: 'webhook_trigger-1', target: 'set-1' },
      { id: 'e2', source: 'set-1', target: 'respond-1' },
    ],
    variables: {},
    metadata: { description: 'Answers a POST of {"name": ...} with a greeting' },
  }),
  next: [
    `weir workflows run <flow> --input '{"name":"Ada"}'   # try the draft: --input is the request body`,
    'weir workflows publish <flow>',
    'weir serve   # then POST {"name": ...} to the URL `weir workflows webhook-url <flow>` prints',
  ],
};
