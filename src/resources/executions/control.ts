import { WeirError } from '../../errors.js';
import { workflowToRun } from '../../flow/run.js';
import type { ExecutionRecord, RunOptions } from '../../flow/types.js';
import type { ExecutionControl, Executions } from '../../types/executions.js';
import type { Workflows } from '../workflows/index.js';
import type { ExecutionConfigs } from './configs.js';
import { runAgainHint } from './again.js';

/** What retry and rerun use: the records, the kept configs, the workflows and a way to run. */
export interface ControlDeps {
  executions: Pick<Executions, 'get' | 'open'>;
  configs: ExecutionConfigs;
  workflows: Pick<Workflows, 'findPublished' | 'getLocal'>;
  run(options: RunOptions): Promise<ExecutionRecord>;
  cancel(id: string): Promise<ExecutionRecord>;
  /** Decides an approval wait (the waits do). */
  approve: ExecutionControl['approve'];
}

/**
 * Execution control: `cancel` and `approve` (given), `retry` (a failed or cancelled execution again from its failed node,
 * its finished nodes' records reused) and `rerun` (its trigger input again, as a fresh execution).
 * @example
 * const control = createExecutionControl({ executions, configs, workflows, run: executor.run, cancel, approve: waits.approve })
 * const retried = await control.retry('exec_123')
 */
export function createExecutionControl({ executions, configs, workflows, run, cancel, approve }: ControlDeps): ExecutionControl {
  /** The config an execution ran: the kept snapshot of its hash, or the current copy if it still has that hash. */
  async function sameVersion(old: ExecutionRecord): Promise<RunOptions['workflow']> {
    const kept = old.hash ? await configs.get(old.workflowId, old.hash) : null;
    if (kept) {
      return { id: old.workflowId, name: old.workflowName, version: old.version, config: kept, hash: old.hash, ...(old.draft ? { draft: true } : {}) };
    }
    const current = await workflowToRun(workflows, old.workflowId, !old.draft).catch(() => null);
    if (current && old.hash && current.hash === old.hash) return current;
    // `--latest` only when there is a current config to retry against (the workflow may be gone, or unpublished).
    throw new WeirError('NOT_FOUND', `the config execution ${old.id} ran (version ${old.version ?? 'draft'}) was not kept`, {
      hints: current ? [`run \`weir workflows retry ${old.id} --latest\` to retry against the current config`] : [],
    });
  }

  return {
    cancel,
    approve,
    async retry(id, { latest = false } = {}) {
      const old = await executions.get(id);
      if (old.status !== 'error' && old.status !== 'cancelled') {
        throw new WeirError('CONFLICT', `execution ${id} is ${old.status}; only an execution that ended in error or was cancelled can be retried`, {
          hints: [runAgainHint(old)],
        });
      }
      const workflow = latest ? await workflowToRun(workflows, old.workflowId, !old.draft) : await sameVersion(old);
      // The finished nodes' real data (sealed where a secret was masked), not the masked record shown.
      const real = await executions.open.real(old);
      return run({ workflow, input: real.input, trigger: old.trigger, resume: real, retryOf: old.id });
    },
    async rerun(id, { draft = false } = {}) {
      const old = await executions.get(id);
      const workflow = await workflowToRun(workflows, old.workflowId, !draft);
      return run({ workflow, input: old.input, trigger: old.trigger, rerunOf: old.id });
    },
  };
}
