// kill -9 of `weir serve` while an agent waits for its fourth model answer, after three tool calls: after the
// restart the execution resumes, and neither the model (counted by the fake model server) nor the tool flow
// (counted by its side effect on a server of the test's own) is called again for the steps that were stored.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { chain, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';
import { llmConfig, publishToolFlow, recordingServer } from './_agent.js';
import { modelServer } from './_model-server.js';

test('kill -9 after three tool calls: the resumed agent calls neither the model nor the tools again for those steps', async () => {
  const side = await recordingServer();
  let restarted = false;
  let release!: () => void;
  const hung = new Promise<void>((r) => (release = r));
  // Asks for `tick` with n = the number of tool results so far, three times; the fourth answer hangs until the
  // kill, and after the restart the model answers in words.
  const model = await modelServer('openai', async ({ body }) => {
    const results = body.messages.filter((m: any) => m.role === 'tool').length;
    if (results < 3) return { toolCalls: [{ name: 'tick', input: { n: results } }], usage: { input: 10, output: 2 } };
    if (!restarted) await hung;
    return { text: 'three ticks', usage: { input: 40, output: 3 } };
  });
  const home = tmpDir('weir-agent-crash-');
  writeFileSync(join(home, 'weir.config.json'), JSON.stringify(llmConfig('openai', model)));
  const setup = await createWeir({ home });
  await setup.secrets.set('OPENAI_API_KEY', 'sk-test');
  await publishToolFlow(setup, 'tick', [{ name: 'n', type: 'number', required: true }], `${side.base}/tick/{{ $input.n }}`);
  const flow = chain('webhook_trigger', [{ type: 'agent', id: 'agent-1', config: { agent: 'assistant', prompt: 'tick three times', tools: ['tick'] } }]);
  const { id: workflowId, token } = await publish(setup, 'ticker', { type: 'webhook_trigger', config: { respondImmediately: true } }, flow.nodes, flow.edges);
  await setup.close();

  let host = await startServe(home, ['--quiet']);
  const weir = await createWeir({ home });
  try {
    const started = await send(`${host.url}/trigger/${token}`, { body: '{}', headers: { 'content-type': 'application/json' } });
    assert.ok(started.status < 300, JSON.stringify(started.json));
    await until(() => model.requests.length === 4, 30_000, 'the fourth model call');
    await host.stop('SIGKILL');
    assert.equal(side.calls.map((c) => c.path), ['/tick/0', '/tick/1', '/tick/2'], 'three tool calls before the kill');

    restarted = true;
    host = await startServe(home, ['--quiet']);
    const [ended] = await until(async () => {
      const list = await weir.executions.list({ workflowId, limit: 5 });
      return list.length === 1 && list[0].status !== 'running' && list;
    }, 60_000, 'the resumed agent to end');
    const record: ExecutionRecord = await weir.executions.get(ended.id);
    assert.is(record.status, 'success', JSON.stringify(record.error));
    assert.ok((record.attempts ?? 1) >= 2, 'resumed, not started again');
    const data = record.nodes['agent-1'].data as any;
    assert.is(data.text, 'three ticks');
    assert.equal(data.toolCalls.map((c: any) => c.input), [{ n: 0 }, { n: 1 }, { n: 2 }]);
    // Three answers before the kill, the one the kill cut off asked again, nothing else.
    assert.is(model.requests.length, 5, 'the model was asked once more, for the step the kill cut off');
    assert.equal(side.calls.map((c) => c.path), ['/tick/0', '/tick/1', '/tick/2'], 'no tool call repeated');
    assert.is(data.steps, 4);
    assert.equal(data.usage, { promptTokens: 70, completionTokens: 9, totalTokens: 79 });
    assert.is(record.children?.length, 3);
    // The resumed conversation is the one before the kill: three tool results, in order.
    const last = model.requests[4].body.messages.filter((m: any) => m.role === 'tool').map((m: any) => JSON.parse(m.content).sent);
    assert.equal(last, [{ n: 0 }, { n: 1 }, { n: 2 }]);
  } finally {
    release();
    await host.stop();
    await weir.close();
    await model.close();
    await side.close();
  }
});

test.run();
