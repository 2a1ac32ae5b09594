// Execution records made up in bulk, saved straight through `weir.executions` (no flow runs): the fixture of the
// listing bench and of the Studio's test at 100,000 executions.
import { performance } from 'node:perf_hooks';
import type { ExecutionRecord } from '../src/flow/types.js';
import { newExecutionId } from '../src/resources/executions/ids.js';
import { createWeir } from '../src/weir.js';

export interface GenerateOptions {
  /** How many records (default 100,000). */
  total?: number;
  /** Spread over this many workflows, `wf_0`... (default 10). */
  workflows?: number;
  /** The workflows' ids instead of `wf_<n>` (as many as `workflows`), for records of flows that exist. */
  ids?: string[];
  /**
   * Saved this many at a time (default 4): a batch (a file) holds the records saved together, so a few at a
   * time makes the most files a listing can meet.
   */
  atOnce?: number;
}

/**
 * Writes `total` success records (0.5 % errors, node `set-1` failing) 10 ms apart ending now, of workflows
 * `wf_<n>` named `flow <n>`, to the fs home, and closes it again; answers how long it took in ms.
 * @example
 * await writeExecutions(home, { total: 100_000 })
 */
export async function writeExecutions(home: string, { total = 100_000, workflows = 10, ids, atOnce = 4 }: GenerateOptions = {}): Promise<number> {
  const idOf = (n: number) => ids?.[n] ?? `wf_${n}`;
  const writer = await createWeir({ home, env: {} });
  const t0 = Date.now() - total * 10;
  const started = performance.now();
  for (let i = 0; i < total; i += atOnce) {
    const saves: Promise<void>[] = [];
    for (let n = i; n < Math.min(total, i + atOnce); n++) {
      const start = t0 + n * 10;
      const status = Math.floor(n / workflows) % 200 === 7 ? 'error' : 'success';
      const record: ExecutionRecord = {
        id: newExecutionId(start),
        workflowId: idOf(n % workflows),
        workflowName: `flow ${n % workflows}`,
        version: 1,
        status,
        trigger: 'webhook',
        input: { order: { id: n, amount: 99.5 } },
        nodes: { 'set-1': { data: { n }, status: status === 'error' ? 'error' : 'success', startedAt: new Date(start).toISOString(), finishedAt: new Date(start + 2).toISOString() } },
        result: { n },
        ...(status === 'error' ? { error: { code: 'NODE_FAILED', message: 'boom', node: 'set-1' } } : {}),
        startedAt: new Date(start).toISOString(),
        finishedAt: new Date(start + 2).toISOString(),
      } as ExecutionRecord;
      saves.push(writer.executions.save(record));
    }
    await Promise.all(saves);
  }
  const ms = performance.now() - started;
  await writer.close();
  return ms;
}
