import { WeirError } from '../errors.js';
import type { Workflows } from '../resources/workflows/index.js';
import type { Executor } from '../types/executor.js';
import type { RunWorkflow } from '../types/node-services.js';
import type { RunOptions } from './types.js';
import { hashJson } from '../util/json.js';

/**
 * `weir.run`: finds a workflow by id or name (the published copy with `published`, else the local draft)
 * and runs it.
 * @example
 * const run = createRun({ workflows, executor })
 * const record = await run('orders', { id: 42 }, { published: true })
 * if (record.status === 'success') console.log(record.result)
 */
export function createRun({ workflows, executor }: { workflows: Workflows; executor: Pick<Executor, 'run'> }): RunWorkflow {
  return async function run(ref, input = {}, options = {}) {
    const { published, trigger = 'manual', ...rest } = options;
    return executor.run({ ...rest, workflow: await workflowToRun(workflows, ref, !!published), input, trigger });
  };
}

/**
 * What runs of a workflow by id or name: its published copy, or its local draft (with the draft's hash).
 * @example
 * const workflow = await workflowToRun(weir.workflows, 'orders', true)
 */
export async function workflowToRun(workflows: Pick<Workflows, 'findPublished' | 'getLocal'>, ref: string, published: boolean): Promise<RunOptions['workflow']> {
  if (published) {
    const pub = await workflows.findPublished(ref);
    if (!pub) {
      // An unknown ref fails here, naming the workflows nearest to it; a known one only lacks its published copy.
      const draft = await workflows.getLocal(ref);
      throw new WeirError('NOT_FOUND', `no published workflow "${ref}"`, { hints: [`publish it with \`weir workflows publish ${draft.id}\``] });
    }
    return { id: pub.id, name: pub.name, version: pub.version, config: pub.config, hash: pub.hash };
  }
  const wf = await workflows.getLocal(ref);
  return { id: wf.id, name: wf.name, version: wf.base?.version ?? null, config: wf.config, hash: hashJson(wf.config), draft: true };
}
