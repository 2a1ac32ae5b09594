// `approve` on an agent node: before a tool call that needs approval the execution waits (stored, status
// `waiting`, the call in the record), across a restart of the instance; an approval runs the tool flow once and
// its result reaches the model; a denial runs nothing and the model reads it as the tool's result.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/index.js';
import { tmpDir, until } from '../host/_helpers.js';
import { agentRecord, agentWeir, llmConfig, publishAgentFlow, publishToolFlow, recordingServer } from './_agent.js';

const ended = (weir: Weir, id: string) =>
  until(async () => {
    const r = await weir.executions.get(id);
    return !['queued', 'running', 'waiting'].includes(r.status) && r;
  }, 15_000, `execution ${id} to end`);

test('an approved tool call waits across a restart, then runs once; a denied one never runs and the model reads the denial', async () => {
  const side = await recordingServer();
  const home = tmpDir('weir-agent-approve-');
  // Asks for a refund; once it has the tool's result, answers with what it read.
  const { weir: setup, model } = await agentWeir(
    'anthropic',
    ({ body }) => {
      const result = body.messages.flatMap((m: any) => (Array.isArray(m.content) ? m.content : [])).find((c: any) => c.type === 'tool_result');
      if (!result) return { toolCalls: [{ name: 'refund', input: { orderId: 'A1' } }] };
      return { text: `refund: ${typeof result.content === 'string' ? result.content : JSON.stringify(result.content)}` };
    },
    home,
  );
  let weir: Weir | undefined;
  let setupOpen = true;
  try {
    await publishToolFlow(setup, 'refund', [{ name: 'orderId', type: 'string', required: true }], `${side.base}/refund/{{ $input.orderId }}`);
    const { id } = await publishAgentFlow(setup, 'support', { agent: 'assistant', prompt: 'refund A1', tools: ['refund'], approve: ['refund'] });
    const first = await setup.run(id, {}, { published: true });
    assert.is(first.status, 'waiting', JSON.stringify(first.error));
    assert.equal(agentRecord(first).status, 'waiting');
    assert.equal((first.nodes['agent-1'] as any).wait, { kind: 'approval', tool: 'refund', input: { orderId: 'A1' } });
    assert.is(side.calls.length, 0, 'nothing ran before the approval');
    await setup.close();
    setupOpen = false;

    // Another instance on the same home (a restart): the wait is stored, the approval goes on from it.
    weir = await createWeir({ home, config: llmConfig('anthropic', model), env: {} });
    void weir.waits.start();
    await weir.executions.approve(first.id, { approve: true });
    const approved = await ended(weir, first.id);
    assert.is(approved.status, 'success', JSON.stringify(approved.error));
    assert.equal(side.calls.map((c) => c.path), ['/refund/A1'], 'the tool flow ran once, after the approval');
    const data = agentRecord(approved).data;
    assert.equal(data.toolCalls.map((c: any) => [c.name, c.input, c.output.sent]), [['refund', { orderId: 'A1' }, { orderId: 'A1' }]]);
    assert.match(data.text, /refund: .*\/refund\/A1/);
    assert.is(model.requests.length, 2, 'the model was not asked again for the step before the wait');

    const second = await weir.run(id, {}, { published: true });
    assert.is(second.status, 'waiting');
    await weir.executions.approve(second.id, { approve: false, reason: 'over the limit' });
    const denied = await ended(weir, second.id);
    assert.is(denied.status, 'success', JSON.stringify(denied.error));
    assert.is(side.calls.length, 1, 'a denied call runs nothing');
    assert.is(agentRecord(denied).data.text, 'refund: denied by a person: over the limit');
    assert.equal(agentRecord(denied).data.toolCalls, [{ name: 'refund', input: { orderId: 'A1' }, output: { denied: true, reason: 'over the limit' } }]);
  } finally {
    if (setupOpen) await setup.close();
    await weir?.close();
    await model.close();
    await side.close();
  }
});

test.run();
