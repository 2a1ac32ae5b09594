import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir, defineNode, type FlowEdge, type NodeDefinition, type Weir, type WeirOptions, type WorkflowConfig } from '../../src/index.js';
import { ROOT } from '../_utils.js';

/** A flow config from test/fixtures/flows/<name>.json. */
export const fixture = (name: string) => JSON.parse(readFileSync(join(ROOT, 'test/fixtures/flows', `${name}.json`), 'utf8'));

/** An in-memory weir with the test node types below. */
export const memoryWeir = (options: WeirOptions = {}): Promise<Weir> => createWeir({ env: {}, ...options, nodes: [...testNodes(), ...(options.nodes ?? [])] });

/** Runs a config through the executor as workflow `wf_test`. */
export function runConfig(weir: Weir, config: unknown, input: unknown = {}, extra: Record<string, unknown> = {}) {
  return weir.executor.run({ workflow: { id: 'wf_test', name: 'test', config: config as never }, input, trigger: 'manual', ...extra });
}

/** A flow of a manual trigger followed by `nodes`, chained in order unless `edges` are given. */
export function chain(nodes: Array<{ id: string; type: string; config?: Record<string, unknown> }>, edges?: FlowEdge[]): WorkflowConfig {
  const all = [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, ...nodes.map((n) => ({ config: {}, ...n }))];
  return { nodes: all, edges: edges ?? all.slice(1).map((n, i) => ({ source: all[i].id, target: n.id })), variables: {}, metadata: {} };
}

/**
 * Test-only node types: `flaky` fails its first `failures` attempts (counting in `attempts`), `boom` always
 * throws, `hang` waits for its signal and records that it saw the abort.
 */
export function testNodes(): NodeDefinition<any>[] {
  const counts = new Map<string, number>();
  const aborted: string[] = [];
  return [
    defineNode<{ failures: number }>({
      type: 'flaky',
      run(ctx) {
        const n = (counts.get(ctx.node.id) ?? 0) + 1;
        counts.set(ctx.node.id, n);
        if (n <= ctx.config.failures) throw new Error(`flaky failure ${n}`);
        return { attempts: n, at: Date.now() };
      },
    }),
    defineNode({
      type: 'boom',
      run() {
        throw new Error('boom');
      },
    }),
    defineNode({
      type: 'hang',
      run: (ctx) =>
        new Promise((_, reject) =>
          ctx.signal.addEventListener('abort', () => {
            aborted.push(ctx.node.id);
            reject(ctx.signal.reason);
          }),
        ),
    }),
    defineNode({ type: 'aborted_list', run: () => [...aborted] }),
  ];
}
