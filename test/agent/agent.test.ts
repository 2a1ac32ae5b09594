// The agent node through a real weir against fake model servers of ours (both wire formats): a tool flow runs
// as its own execution with exactly the model's input and its result goes back to the model; knowledge_search;
// maxSteps fails with MAX_STEPS and the partial calls (routable by onError continue); a failing tool flow is
// the tool's result; structured output is validated and retried once; no provider says what to set.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/index.js';
import { tmpDir, until } from '../host/_helpers.js';
import { agentRecord, agentWeir, publishAgentFlow, publishToolFlow, recordingServer } from './_agent.js';

const ORDER_PARAMS = [{ name: 'orderId', type: 'string', required: true }, { name: 'note', type: 'string' }];

test('openai: a tool flow runs as its own execution with exactly the model input, and its result goes back to the model', async () => {
  const side = await recordingServer();
  const { weir, model, close } = await agentWeir('openai', ({ n }) =>
    n === 0 ? { toolCalls: [{ name: 'lookup-order', input: { orderId: 'A7', note: 'urgent' }, id: 'call_1' }], usage: { input: 100, output: 20 } } : { text: 'Order A7 has shipped.', usage: { input: 150, output: 10 } },
  );
  try {
    await weir.agents.create('orders', 'Orders', undefined, { prompt: 'You answer questions about orders.' });
    await publishToolFlow(weir, 'lookup-order', ORDER_PARAMS, `${side.base}/orders/{{ $input.orderId }}`, 'Looks up an order by its id');
    const { id } = await publishAgentFlow(weir, 'ask-orders', { agent: 'orders', prompt: 'Where is order {{ $input.orderId }}?', tools: ['lookup-order'] });
    const run = await weir.run(id, { orderId: 'A7' }, { published: true });
    assert.is(run.status, 'success', JSON.stringify(run.error));

    // The tool flow really ran, with the model's input as its input and nothing else.
    assert.is(side.hits('/orders/A7'), 1);
    assert.equal(JSON.parse(side.calls[0].body), { orderId: 'A7', note: 'urgent' });
    assert.is(run.children?.length, 1);
    const child = await weir.executions.get(run.children![0].executionId);
    assert.equal([child.status, child.trigger, child.parentExecutionId, child.parentNodeId, child.workflowName], ['success', 'agent', run.id, 'agent-1', 'lookup-order']);
    assert.equal(child.input, { orderId: 'A7', note: 'urgent' });

    // What the model was sent: the system prompt, the rendered prompt, the tool with its schema from inputParams.
    const first = model.requests[0].body;
    assert.equal(first.messages.slice(0, 2), [{ role: 'system', content: 'You answer questions about orders.' }, { role: 'user', content: 'Where is order A7?' }]);
    const tool = first.tools.find((t: any) => t.function?.name === 'lookup-order');
    assert.ok(tool, JSON.stringify(first.tools));
    assert.is(tool.function.description, 'Looks up an order by its id');
    assert.equal(tool.function.parameters.properties, { orderId: { type: 'string' }, note: { type: 'string' } });
    assert.equal(tool.function.parameters.required, ['orderId']);
    // ...and the tool flow's result came back as the answer to its call.
    const answer = model.requests[1].body.messages.find((m: any) => m.role === 'tool');
    assert.is(answer.tool_call_id, 'call_1');
    assert.equal(JSON.parse(answer.content), { sent: { orderId: 'A7', note: 'urgent' }, answer: { path: '/orders/A7', seen: 1 } });

    const data = agentRecord(run).data;
    assert.is(data.text, 'Order A7 has shipped.');
    assert.equal(data.toolCalls, [{ name: 'lookup-order', input: { orderId: 'A7', note: 'urgent' }, output: { sent: { orderId: 'A7', note: 'urgent' }, answer: { path: '/orders/A7', seen: 1 } } }]);
    assert.equal(data.usage, { promptTokens: 250, completionTokens: 30, totalTokens: 280 });
    assert.is(data.steps, 2);
    assert.is(model.requests.length, 2);
  } finally {
    await close();
    await side.close();
  }
});

test('anthropic: knowledge_search finds the document and the model reads the hits', async () => {
  const { weir, model, close } = await agentWeir('anthropic', ({ n }) => (n === 0 ? { toolCalls: [{ name: 'knowledge_search', input: { query: 'refund window' } }] } : { text: 'Refunds are possible within 30 days.' }));
  try {
    await weir.knowledge.upload({ name: 'refunds.md', data: '# Refunds\nThe refund window is 30 days from delivery.' });
    await weir.knowledge.upload({ name: 'shipping.md', data: '# Shipping\nParcels leave within two days.' });
    const { id } = await publishAgentFlow(weir, 'ask-kb', { agent: 'assistant', prompt: 'How long can I ask for a refund?', knowledge: true });
    const run = await weir.run(id, {}, { published: true });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    const data = agentRecord(run).data;
    assert.is(data.text, 'Refunds are possible within 30 days.');
    assert.is(data.toolCalls[0].name, 'knowledge_search');
    assert.equal(data.toolCalls[0].output.map((h: any) => h.name), ['refunds.md']);
    assert.ok(JSON.stringify(model.requests[0].body.tools).includes('knowledge_search'));
    const sent = JSON.stringify(model.requests[1].body.messages);
    assert.ok(sent.includes('refunds.md') && !sent.includes('shipping.md'), sent);
    assert.is(model.requests[0].body.system, (await weir.agents.get('assistant')).systemPrompt);
  } finally {
    await close();
  }
});

test('maxSteps stops a looping model with MAX_STEPS and the partial tool calls; onError continue routes the error', async () => {
  const side = await recordingServer();
  const { weir, model, close } = await agentWeir('openai', ({ n }) => ({ text: `still looking (${n})`, toolCalls: [{ name: 'lookup-order', input: { orderId: `O${n}` } }] }));
  try {
    await publishToolFlow(weir, 'lookup-order', ORDER_PARAMS, `${side.base}/orders/{{ $input.orderId }}`);
    const stop = await publishAgentFlow(weir, 'loops', { agent: 'assistant', prompt: 'find it', tools: ['lookup-order'], maxSteps: 3 });
    const failed = await weir.run(stop.id, {}, { published: true });
    assert.is(failed.status, 'error');
    assert.is(failed.error?.code, 'MAX_STEPS');
    assert.match(failed.error!.message, /maxSteps 3/);
    assert.is(model.requests.length, 3, 'three model calls, no more');
    // The third answer's calls did not run: two tool calls were made.
    assert.equal(side.calls.map((c) => c.path), ['/orders/O0', '/orders/O1']);
    const error = agentRecord(failed).error;
    assert.is(error.code, 'MAX_STEPS');
    assert.equal(error.details.toolCalls.map((c: any) => c.input), [{ orderId: 'O0' }, { orderId: 'O1' }]);
    assert.is(error.details.text, 'still looking (2)');
    assert.is(error.details.steps, 3);

    const routed = await publishAgentFlow(weir, 'loops-continue', { agent: 'assistant', prompt: 'find it', tools: ['lookup-order'], maxSteps: 1, onError: 'continue' }, [
      { type: 'set', id: 'set-1', config: { values: { code: '{{ $node.agent-1.data.error.code }}', calls: '{{ $node.agent-1.data.error.details.toolCalls }}', text: '{{ $node.agent-1.data.error.details.text }}' } } },
    ]);
    const run = await weir.run(routed.id, {}, { published: true });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    assert.equal(run.result, { code: 'MAX_STEPS', calls: [], text: 'still looking (3)' });
  } finally {
    await close();
    await side.close();
  }
});

test('a tool flow that fails, or an input its inputParams refuse, is the tool result the model reads', async () => {
  const { weir, model, close } = await agentWeir('openai', ({ n }) =>
    n === 0 ? { toolCalls: [{ name: 'lookup-order', input: { note: 'no id' }, id: 'bad' }, { name: 'broken', input: {}, id: 'boom' }] } : { text: 'Sorry, I could not look it up.' },
  );
  try {
    await publishToolFlow(weir, 'lookup-order', ORDER_PARAMS, 'http://127.0.0.1:9/never');
    const broken = await weir.workflows.create('broken', undefined, {
      config: { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'code-1', type: 'code', config: { code: 'throw new Error("the ledger is closed")' } }], edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'code-1' }], variables: {}, metadata: {} } as any,
      publish: true,
    });
    const { id } = await publishAgentFlow(weir, 'ask-broken', { agent: 'assistant', prompt: 'go', tools: ['lookup-order', 'broken'] });
    const run = await weir.run(id, {}, { published: true });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    const [refused, failed] = agentRecord(run).data.toolCalls;
    assert.is(refused.output.error.code, 'INVALID_INPUT');
    assert.match(refused.output.error.message, /"orderId" is required/);
    assert.is(failed.output.error.code, 'EXECUTION_FAILED');
    assert.match(failed.output.error.message, /the ledger is closed/);
    const child = await weir.executions.get(failed.output.error.executionId);
    assert.equal([child.status, child.workflowId], ['error', broken.id]);
    assert.is(run.children?.length, 1, 'the refused input started no execution');
    const answers = model.requests[1].body.messages.filter((m: any) => m.role === 'tool');
    assert.equal(answers.map((a: any) => a.tool_call_id), ['bad', 'boom']);
    assert.match(answers[1].content, /the ledger is closed/);
  } finally {
    await close();
  }
});

test('a tool flow that waits makes the agent wait, and its result reaches the model once it ends', async () => {
  const { weir, model, close } = await agentWeir('openai', ({ n }) => (n === 0 ? { toolCalls: [{ name: 'slow', input: {} }] } : { text: 'done waiting' }));
  try {
    await weir.workflows.create('slow', undefined, {
      config: {
        nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'wait-1', type: 'wait', config: { for: '300ms' } }, { id: 'set-1', type: 'set', config: { values: { waited: true } } }],
        edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'wait-1' }, { id: 'e2', source: 'wait-1', target: 'set-1' }],
        variables: {},
        metadata: {},
      } as any,
      publish: true,
    });
    const { id } = await publishAgentFlow(weir, 'ask-slow', { agent: 'assistant', prompt: 'go', tools: ['slow'] });
    // The timer of stored waits, as `weir serve` starts it.
    void weir.waits.start();
    const first = await weir.run(id, {}, { published: true });
    assert.is(first.status, 'waiting', JSON.stringify(first.error));
    assert.is(model.requests.length, 1);
    const ended = await until(async () => {
      const r = await weir.executions.get(first.id);
      return r.status !== 'waiting' && r.status !== 'running' && r;
    }, 20_000, 'the agent to go on once the tool flow ended');
    assert.is(ended.status, 'success', JSON.stringify(ended.error));
    const data = agentRecord(ended).data;
    assert.equal(data.toolCalls, [{ name: 'slow', input: {}, output: { waited: true } }]);
    assert.is(data.text, 'done waiting');
    assert.is(model.requests.length, 2);
  } finally {
    await close();
  }
});

test('structured output: a valid answer is data.output; an invalid one is retried once with the problems, then fails', async () => {
  const schema = { type: 'object', properties: { sentiment: { enum: ['good', 'bad'] }, score: { type: 'number' } }, required: ['sentiment'] };
  const answers = ['{"sentiment": "meh"}', '```json\n{"sentiment": "good", "score": 0.9}\n```'];
  const { weir, model, close } = await agentWeir('openai', ({ n }) => ({ text: answers[n] ?? 'not json at all' }));
  try {
    const { id } = await publishAgentFlow(weir, 'classify', { agent: 'assistant', prompt: 'Classify: I love it', output: { schema } });
    const run = await weir.run(id, {}, { published: true });
    assert.is(run.status, 'success', JSON.stringify(run.error));
    assert.equal(agentRecord(run).data.output, { sentiment: 'good', score: 0.9 });
    assert.is(model.requests.length, 2);
    // Asked in the provider's JSON-schema mode, with the node's schema.
    assert.equal(model.requests[0].body.response_format?.json_schema?.schema, schema);
    const retry = model.requests[1].body.messages.at(-1);
    assert.is(retry.role, 'user');
    assert.match(retry.content, /sentiment: must be one of good, bad/);

    // From here on every answer is invalid: one retry, then the node fails.
    const again = await weir.run(id, {}, { published: true });
    assert.is(again.status, 'error');
    assert.is(again.error?.code, 'INVALID_OUTPUT');
    assert.match(again.error!.message, /not JSON/);
    assert.is(model.requests.length, 4, 'the first answer and one retry');
  } finally {
    await close();
  }
});

test('no providers.llm: the node fails saying what to set', async () => {
  const weir = await createWeir({ home: tmpDir('weir-agent-none-'), env: {} });
  try {
    const { id } = await publishAgentFlow(weir, 'no-model', { agent: 'assistant', prompt: 'hello' });
    const run = await weir.run(id, {}, { published: true });
    assert.is(run.status, 'error');
    assert.match(run.error!.message, /providers\.llm/);
    assert.match(run.error!.message, /weir\.config\.json/);
  } finally {
    await weir.close();
  }
});

test('save refuses bad shapes; an unpublished tool flow fails the run naming it', async () => {
  const { weir, model, close } = await agentWeir('openai', () => ({ text: 'unused' }));
  try {
    const wf = await weir.workflows.create('bad-agent');
    const save = (config: Record<string, unknown>) =>
      weir.workflows.save(wf.id, { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'agent-1', type: 'agent', config }], edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'agent-1' }], variables: {}, metadata: {} } as any).then(
        () => '',
        (err) => err.message as string,
      );
    assert.match(await save({ prompt: 'x' }), /agent/);
    assert.match(await save({ agent: 'assistant', prompt: 'x', maxSteps: 0 }), /maxSteps/);
    assert.match(await save({ agent: 'assistant', prompt: 'x', tools: ['a'], approve: ['b'] }), /approve\[0\]: agent-1: "b" is not one of the node's tools/);
    assert.match(await save({ agent: 'assistant', prompt: 'x', tools: ['knowledge_search'] }), /"knowledge": true/);
    assert.match(await save({ agent: 'assistant', prompt: 'x', output: { schema: { type: 'object' }, strict: true } }), /strict/);
    assert.match(await save({ agent: 'assistant', prompt: 'x', tool: ['a'] }), /tool/);
    assert.is(await save({ agent: 'assistant', prompt: 'x', tools: ['a'], approve: ['a'] }), '');

    await publishToolFlow(weir, 'lookup-order', ORDER_PARAMS, 'http://127.0.0.1:9/never');
    const { id } = await publishAgentFlow(weir, 'typo', { agent: 'assistant', prompt: 'x', tools: ['lookup-ordr'] });
    const run = await weir.run(id, {}, { published: true });
    assert.is(run.status, 'error');
    assert.is(run.error?.code, 'NOT_FOUND');
    assert.match(run.error!.message, /no published flow "lookup-ordr".*did you mean "lookup-order"/);
    assert.is(model.requests.length, 0);
  } finally {
    await close();
  }
});

test.run();
