// The flows and the request body the HTTP benchmarks share, so their figures describe the same work.

/** The order every webhook benchmark posts. */
export const ORDER_BODY = JSON.stringify({ order: { id: 12345, amount: 99.5, items: [{ sku: 'a-1', qty: 2 }] }, source: 'bench' });

/** (b): a webhook answered at once (the execution runs after the 200). */
export const IMMEDIATE_FLOW = { nodes: [{ id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: true } }], edges: [] };

/** (c): webhook -> set -> condition -> respond, the caller waiting for the Respond node. */
export const RESPOND_FLOW = {
  nodes: [
    { id: 'webhook_trigger-1', type: 'webhook_trigger', config: { respondImmediately: false } },
    { id: 'set-1', type: 'set', config: { values: { amount: '{{ body.order.amount }}', id: '{{ body.order.id }}' } } },
    { id: 'condition-1', type: 'condition', config: { rules: { '>': [{ var: 'node.set-1.data.amount' }, 10] } } },
    { id: 'respond-1', type: 'respond', config: { status: 200, body: { accepted: '{{ $node.set-1.data.id }}' } } },
    { id: 'respond-2', type: 'respond', config: { status: 422, body: { accepted: false } } },
  ],
  edges: [
    { id: 'e1', source: 'webhook_trigger-1', target: 'set-1' },
    { id: 'e2', source: 'set-1', target: 'condition-1' },
    { id: 'e3', source: 'condition-1', target: 'respond-1', sourceHandle: 'true' },
    { id: 'e4', source: 'condition-1', target: 'respond-2', sourceHandle: 'false' },
  ],
};
