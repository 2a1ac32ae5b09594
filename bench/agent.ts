// What weir adds per step of an agent node: a published flow (manual trigger -> agent with one tool flow) run
// through `weir.run()` on an fs home, against a fake chat-completions server of ours that answers at once:
// the model asks for the tool twice, then answers (three model calls, two tool flow executions, each model
// call and each tool call a checkpoint). The baseline, in the same process and rounds (order alternating), does
// the same work by hand without the node: one run of a flow with just a `set` (the execution around the node),
// the same three model calls through the same driver, and the tool flow run twice with `weir.run`. weir's
// overhead per step (checkpoints, tool dispatch, the conversation kept) = (agent run - baseline) / 3 steps.
// Each round times `BENCH_RUNS` runs of each (default 40); `BENCH_ROUNDS` rounds (default 7); medians.
// Target: < 2 ms a step. The library is the built one (`dist/`, or WEIR_OUT).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import type * as Weir from '../src/index.js';
import { createChatModel } from '../src/agent/providers/index.js';
import type { ModelMessage } from '../src/agent/model.js';
import { modelServer } from '../test/agent/_model-server.js';
import { median, report } from './_stats.js';

const { createWeir } = (await import(`../${process.env.WEIR_OUT ?? 'dist'}/index.js`)) as typeof Weir;

const RUNS = Number(process.env.BENCH_RUNS ?? 40);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);
const STEPS = 3;

// Two tool calls, then a text answer, whatever conversation it is in.
const model = await modelServer('openai', ({ body }) => {
  const results = body.messages.filter((m: { role: string }) => m.role === 'tool').length;
  return results < 2 ? { toolCalls: [{ name: 'stock', input: { sku: `sku-${results}` } }], usage: { input: 20, output: 5 } } : { text: 'both in stock', usage: { input: 40, output: 4 } };
});
const llm = { driver: 'openai', baseUrl: model.url, model: 'bench-model' };
const home = mkdtempSync(join(tmpdir(), 'weir-bench-agent-'));
const weir = await createWeir({ home, env: {}, config: { providers: { llm } } as never });
await weir.secrets.set('OPENAI_API_KEY', 'sk-bench');
const flow = (nodes: unknown[]) => ({ nodes, edges: nodes.slice(1).map((n, i) => ({ source: (nodes[i] as { id: string }).id, target: (n as { id: string }).id })) });
const trigger = { id: 'manual_trigger-1', type: 'manual_trigger', config: { inputParams: [{ name: 'sku', type: 'string', required: true }] } };
try {
  await weir.workflows.create('stock', 'Stock of a SKU', { config: flow([trigger, { id: 'set-1', type: 'set', config: { values: { sku: '{{ $input.sku }}', inStock: true } } }]) as never, publish: true });
  const agentFlow = await weir.workflows.create('bench-agent', undefined, { config: flow([{ ...trigger, config: {} }, { id: 'agent-1', type: 'agent', config: { agent: 'assistant', prompt: 'Are sku-0 and sku-1 in stock?', tools: ['stock'] } }]) as never, publish: true });
  const plainFlow = await weir.workflows.create('bench-plain', undefined, { config: flow([{ ...trigger, config: {} }, { id: 'set-1', type: 'set', config: { values: { text: 'both in stock' } } }]) as never, publish: true });
  const chat = createChatModel({ providers: { llm } } as never, { OPENAI_API_KEY: 'sk-bench' });
  const tools = [{ name: 'stock', description: 'Stock of a SKU', parameters: { type: 'object', properties: { sku: { type: 'string' } }, required: ['sku'] } }];

  const viaAgent = async () => {
    const record = await weir.run(agentFlow.id, {}, { published: true });
    const data = record.nodes['agent-1']?.data as { steps?: number; toolCalls?: unknown[] } | undefined;
    if (record.status !== 'success' || data?.steps !== STEPS || data.toolCalls?.length !== 2) throw new Error(`unexpected run: ${record.status} ${JSON.stringify(record.error ?? data)}`);
  };
  const byHand = async () => {
    const record = await weir.run(plainFlow.id, {}, { published: true });
    if (record.status !== 'success') throw new Error(`unexpected run: ${record.status}`);
    const messages: ModelMessage[] = [{ role: 'user', content: 'Are sku-0 and sku-1 in stock?' }];
    for (;;) {
      const turn = await chat.complete({ system: 'bench', messages, tools });
      messages.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
      if (!turn.toolCalls.length) break;
      for (const call of turn.toolCalls) {
        const tool = await weir.run('stock', call.input, { published: true });
        if (tool.status !== 'success') throw new Error(`unexpected tool run: ${tool.status}`);
        messages.push({ role: 'tool', toolCallId: call.id, name: call.name, content: JSON.stringify(tool.result) });
      }
    }
  };
  const timed = async (fn: () => Promise<void>) => {
    const from = performance.now();
    for (let i = 0; i < RUNS; i++) await fn();
    return (performance.now() - from) / RUNS;
  };
  await timed(viaAgent);
  await timed(byHand);
  const agentMs: number[] = [];
  const handMs: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    if (r % 2) {
      handMs.push(await timed(byHand));
      agentMs.push(await timed(viaAgent));
    } else {
      agentMs.push(await timed(viaAgent));
      handMs.push(await timed(byHand));
    }
  }
  const a = median(agentMs);
  const h = median(handMs);
  const perStep = (a - h) / STEPS;
  report({ name: 'agent, 3 model calls + 2 tool flows, a run', weir: `${a.toFixed(2)} ms`, baseline: `${h.toFixed(2)} ms`, ratio: a / h, target: '-', ok: true });
  report({ name: "agent, weir's overhead per step", weir: `${perStep.toFixed(3)} ms`, baseline: '-', ratio: perStep / 2, target: '< 2 ms a step', ok: perStep < 2 });
  if (perStep >= 2) process.exitCode = 1;
} finally {
  await weir.close();
  await model.close();
  rmSync(home, { recursive: true, force: true });
}
