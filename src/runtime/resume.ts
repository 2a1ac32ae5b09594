import type { WeirBus } from '../events.js';
import type { ExecutionRecord } from '../flow/types.js';
import { ownerIsGone, startTimeOf, type Executions } from '../resources/executions/index.js';
import type { FlowRef } from '../types/trigger.js';
import type { Dispatcher } from './dispatch.js';

const FINISHED = new Set(['success', 'error', 'cancelled', 'debounced']);

/** When the oldest of these executions started (ms): their records were all written since. */
const startOfOldest = (entries: Array<{ record: ExecutionRecord }>): number => Math.min(...entries.map((e) => startTimeOf(e.record.id) ?? Date.parse(e.record.startedAt)));

/** Options of {@link createResumer}. */
export interface ResumerOptions {
  executions: Pick<Executions, 'open' | 'configs' | 'endedAmong' | 'save'>;
  dispatcher: Pick<Dispatcher, 'run'>;
  bus: WeirBus;
  /** Wins the right to resume one execution (another host may find it at the same time). */
  claim(name: string, at: number): Promise<boolean>;
}

/** What {@link createResumer} returns. */
export interface Resumer {
  /** The flow a stored execution ran (the config snapshot of its hash); null when it is gone. */
  flowOf(record: ExecutionRecord): Promise<FlowRef | null>;
  /**
   * Resumes the running executions whose process died on this machine (the ones no journal or queue
   * restarts); resolves with how many were started.
   */
  scan(): Promise<number>;
}

/**
 * Resumes executions a dead process left running: each continues under its id from its checkpoints (its
 * finished nodes are not run again). One whose final record was stored before the crash (only its open
 * entry was left) is just forgotten.
 * @example
 * const resumer = createResumer({ executions, dispatcher, bus, claim: createClaim({ cluster, home }, 'resume') ?? (async () => true) })
 * await resumer.scan()
 */
export function createResumer({ executions, dispatcher, bus, claim }: ResumerOptions): Resumer {
  async function flowOf(record: ExecutionRecord): Promise<FlowRef | null> {
    if (!record.hash) return null;
    const config = await executions.configs.get(record.workflowId, record.hash);
    return config ? { id: record.workflowId, name: record.workflowName, version: record.version, config, hash: record.hash } : null;
  }

  async function resume(record: ExecutionRecord): Promise<void> {
    const flow = await flowOf(record);
    if (!flow) {
      await executions.open.remove(record.id);
      throw new Error(`execution ${record.id} cannot resume: the config it ran is not stored`);
    }
    // The real data (sealed where a secret was), not the masked record that is shown.
    const real = await executions.open.real(record);
    await dispatcher.run({ flow, trigger: real.trigger, input: real.input, executionId: real.id, resume: real, background: true });
  }

  return {
    flowOf,
    async scan() {
      const entries = await executions.open.list();
      // An execution that ended just before its process died: its final record is made sure of, the entry goes.
      // Stored only when it is not already (the process usually died after storing it, before removing the
      // entry): a second copy would count twice against retention, and a prune would take an older execution.
      // One the journal restarts is the journal's: its replay does the same, and had this removed the entry
      // first, the replay found no entry and ran the finished execution again.
      const ending = entries.filter((e) => FINISHED.has(e.record.status) && e.by !== 'journal' && ownerIsGone(e.owner));
      const stored = ending.length ? await executions.endedAmong(new Set(ending.map((e) => e.record.id)), startOfOldest(ending)) : new Set<string>();
      for (const { record } of ending) {
        if (!stored.has(record.id)) await executions.save(record);
        await executions.open.remove(record.id);
      }
      const orphans = entries.filter((e) => e.record.status === 'running' && !e.by && ownerIsGone(e.owner));
      if (!orphans.length) return 0;
      const ended = await executions.endedAmong(new Set(orphans.map((e) => e.record.id)), startOfOldest(orphans));
      let started = 0;
      for (const { record, owner } of orphans) {
        if (ended.has(record.id)) {
          await executions.open.remove(record.id);
          continue;
        }
        if (!(await claim(`${record.id}~${owner.boot}`, Date.parse(record.startedAt)))) continue;
        started++;
        resume(record).catch((error) => bus.emit('execution:resume-error', { executionId: record.id, workflowId: record.workflowId, error }));
      }
      return started;
    },
  };
}
