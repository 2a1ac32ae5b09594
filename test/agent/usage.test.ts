// Token usage a node reports (`ctx.recordUsage`): summed into its record and the execution's, by model; shown
// by `weir workflows execution` (text and --json) and the management API (valid against its OpenAPI
// document); counted in `weir_llm_tokens_total`; and kept across a resume from the node's progress.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import parse from 'parse-prometheus-text-format';
import { serve } from '../../adapters/node-http/index.js';
import { defineNode } from '../../src/nodes/define.js';
import { createWeir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { cli, tmpDir } from '../_utils.js';
import { chain, publish } from '../host/_helpers.js';
import { responseValidators } from '../api/_api.js';

interface Call {
  model: string;
  prompt: number;
  completion: number;
}

/** A stand-in for a node that calls language models: reports each call of its config, then the calls of its second step after saving its progress. */
const probe = defineNode<{ calls: Call[]; then?: Call[] }>({
  type: 'llm_probe',
  docs: { summary: 'Reports token usage as a model-calling node would', output: '`{ reported }`', example: { calls: [] } },
  config: { type: 'object', properties: { calls: { type: 'array' }, then: { type: 'array' } }, required: ['calls'], additionalProperties: false },
  async run(ctx) {
    const report = (c: Call) => ctx.recordUsage(c.model, { promptTokens: c.prompt, completionTokens: c.completion, totalTokens: c.prompt + c.completion });
    // A resumed run starts after the first step: its calls were reported (and stored) by the run before.
    if (!ctx.progress) {
      ctx.config.calls.forEach(report);
      await ctx.saveProgress({ step: 1 });
    }
    (ctx.config.then ?? []).forEach(report);
    return { reported: true };
  },
});

const usage = (p: number, c: number) => ({ promptTokens: p, completionTokens: c, totalTokens: p + c });

test('usage per node and per execution in the record, the API, `weir workflows execution` and /metrics', async () => {
  const home = tmpDir('weir-usage-');
  const weir = await createWeir({ home, nodes: [probe] });
  const serving = await serve(weir, { port: 0 });
  try {
    const flow = chain('manual_trigger', [
      { type: 'llm_probe', id: 'llm_probe-1', config: { calls: [{ model: 'gpt-4o-mini', prompt: 100, completion: 20 }, { model: 'claude-x', prompt: 50, completion: 5 }] } },
      { type: 'set', config: { values: { ok: true } } },
      { type: 'llm_probe', id: 'llm_probe-3', config: { calls: [{ model: 'gpt-4o-mini', prompt: 30, completion: 7 }], then: [{ model: 'gpt-4o-mini', prompt: 1, completion: 1 }] } },
    ]);
    const { id: flowId } = await publish(weir, 'support', { type: 'manual_trigger' }, flow.nodes, flow.edges);
    const token = await weir.interfaces.accessToken();
    const auth = { authorization: `Bearer ${token}` };
    const ran = await fetch(`${serving.url}/api/v1/workflows/${flowId}/run`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: '{"input":{}}' });
    assert.is(ran.status, 200, await ran.clone().text());
    const { id } = (await ran.json()) as ExecutionRecord;

    const res = await fetch(`${serving.url}/api/v1/executions/${id}`, { headers: auth });
    assert.is(res.status, 200);
    const record = (await res.json()) as ExecutionRecord;
    assert.is(record.status, 'success');
    assert.equal(record.nodes['llm_probe-1'].usage, { ...usage(150, 25), byModel: { 'gpt-4o-mini': usage(100, 20), 'claude-x': usage(50, 5) } });
    assert.equal(record.nodes['llm_probe-3'].usage, { ...usage(31, 8), byModel: { 'gpt-4o-mini': usage(31, 8) } });
    assert.not.ok('usage' in record.nodes['set-2'], 'a node that reports nothing has no usage');
    assert.equal(record.usage, { ...usage(181, 33), byModel: { 'gpt-4o-mini': usage(131, 28), 'claude-x': usage(50, 5) } });
    const doc = await (await fetch(`${serving.url}/api/v1/openapi.json`, { headers: auth })).json();
    const valid = responseValidators(doc)('GET', '/api/v1/executions/{id}', 200);
    assert.ok(valid(record), JSON.stringify(valid.errors));
    // A usage of another shape fails the schema: the check above can fail.
    assert.not.ok(valid({ ...record, usage: { totalTokens: 'many' } }));

    const text = await cli(['workflows', 'execution', id], { home });
    assert.is(text.code, 0, text.stderr);
    assert.match(text.stdout, /usage:\s+214 tokens \(prompt 181, completion 33\) by gpt-4o-mini 159, claude-x 55/);
    assert.match(text.stdout, /\bTOKENS\b/);
    assert.match(text.stdout, /\bllm_probe-1\s+success\s+\S+\s+\S+\s+175\b/);
    assert.match(text.stdout, /\bllm_probe-3\s+success\s+\S+\s+\S+\s+39\b/);
    const json = await cli(['workflows', 'execution', id, '--json'], { home });
    assert.is(json.code, 0, json.stderr);
    assert.equal(json.json<ExecutionRecord>().usage, record.usage);
    assert.equal(json.json<ExecutionRecord>().nodes['llm_probe-1'].usage, record.nodes['llm_probe-1'].usage);

    const metrics = await (await fetch(`${serving.url}/metrics`, { headers: auth })).text();
    const family = parse(metrics).find((f) => f.name === 'weir_llm_tokens_total');
    assert.ok(family, 'weir_llm_tokens_total is exported');
    const value = (model: string, kind: string) => Number(family.metrics.find((m) => m.labels?.workflow === 'support' && m.labels?.model === model && m.labels?.kind === kind)?.value);
    assert.is(value('gpt-4o-mini', 'prompt'), 131);
    assert.is(value('gpt-4o-mini', 'completion'), 28);
    assert.is(value('claude-x', 'prompt'), 50);
    assert.is(value('claude-x', 'completion'), 5);
  } finally {
    await serving.close();
    await weir.close();
  }
});

test('a node resumed from its progress keeps the tokens it reported before; a flow without usage records none', async () => {
  const weir = await createWeir({ home: tmpDir('weir-usage-'), nodes: [probe] });
  try {
    const flow = chain('manual_trigger', [{ type: 'llm_probe', id: 'llm_probe-1', config: { calls: [{ model: 'm', prompt: 10, completion: 2 }], then: [{ model: 'm', prompt: 4, completion: 1 }] } }]);
    const config = { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, ...flow.nodes], edges: flow.edges } as any;
    const workflow = { id: 'wf_usage', name: 'usage', config };
    // The record a crashed run stored: the agent after its first step, with that step's tokens.
    const before = usage(10, 2);
    const stored: ExecutionRecord = {
      id: 'exec_resumed',
      workflowId: 'wf_usage',
      workflowName: 'usage',
      version: null,
      status: 'running',
      trigger: 'manual',
      input: {},
      nodes: {
        'manual_trigger-1': { data: {}, status: 'success', startedAt: '2026-01-01T00:00:00.000Z', finishedAt: '2026-01-01T00:00:00.000Z' },
        'llm_probe-1': { data: null, status: 'running', startedAt: '2026-01-01T00:00:00.001Z', finishedAt: null, progress: { step: 1 }, usage: { ...before, byModel: { m: before } } },
      },
      result: null,
      startedAt: '2026-01-01T00:00:00.000Z',
      finishedAt: null,
      usage: { ...before, byModel: { m: before } },
    };
    const resumed = await weir.executor.run({ workflow, input: {}, trigger: 'manual', executionId: stored.id, resume: stored });
    assert.is(resumed.status, 'success');
    assert.equal(resumed.nodes['llm_probe-1'].usage, { ...usage(14, 3), byModel: { m: usage(14, 3) } }, 'the first step is counted once, the second added');
    assert.equal(resumed.usage, { ...usage(14, 3), byModel: { m: usage(14, 3) } });

    const plain = await weir.executor.run({ workflow: { id: 'wf_plain', name: 'plain', config: { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'set-1', type: 'set', config: { values: { a: 1 } } }], edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }] } as any }, input: {}, trigger: 'manual' });
    assert.is(plain.status, 'success');
    assert.not.ok('usage' in plain);
    assert.not.ok('usage' in plain.nodes['set-1']);
  } finally {
    await weir.close();
  }
});

test.run();
