import type { Executions } from '../resources/executions/index.js';
import type { TokenRecord, WaitStore } from './store.js';

/** The layout in which every token and ended time has its `of:` entry. */
const LAYOUT = 2;
/** Token records read at once. */
const SLICE = 256;
/**
 * A token whose execution has no record is taken for a pruned one only once issued this long ago: a run
 * going on in another process may not have stored any record yet.
 */
const GRACE_MS = 24 * 3_600_000;

/** Options of {@link indexLegacyWaits}. */
export interface LegacyWaitsOptions {
  store: WaitStore;
  executions: Pick<Executions, 'retainedAmong'>;
  now(): number;
}

/**
 * Brings records stored before tokens and ended times had `of:` entries under the pruning of their
 * executions, once per storage (a `layout` key marks it done): a token gets its entry, or goes with its kept
 * call and ended time when its execution's record is already gone. An ended time of an execution with no
 * token goes too: it only ever spends tokens issued before it, and none is left. Resolves with how many
 * executions' records it removed.
 * @example
 * await indexLegacyWaits({ store, executions, now: Date.now })
 */
export async function indexLegacyWaits({ store, executions, now }: LegacyWaitsOptions): Promise<number> {
  if ((await store.layout()) >= LAYOUT) return 0;
  // Ended times are listed before tokens: the tokens an ended time spends were all stored before it.
  const ended = await store.endedIds();
  const indexed = await store.indexed();
  const legacy = (await store.tokens()).filter((token) => !indexed.tokens.has(token));
  // workflow -> execution -> its tokens
  const groups = new Map<string, Map<string, Array<[string, TokenRecord]>>>();
  for (let i = 0; i < legacy.length; i += SLICE) {
    for (const [token, record] of await store.tokenRecords(legacy.slice(i, i + SLICE))) {
      const byExecution = groups.get(record.workflowId) ?? groups.set(record.workflowId, new Map()).get(record.workflowId)!;
      const tokens = byExecution.get(record.executionId) ?? byExecution.set(record.executionId, []).get(record.executionId)!;
      tokens.push([token, record]);
    }
  }
  const endedSet = new Set(ended);
  const withTokens = new Set(indexed.executions);
  let removed = 0;
  for (const [workflowId, byExecution] of groups) {
    const retained = await executions.retainedAmong(workflowId, new Set(byExecution.keys()));
    const gone: string[] = [];
    for (const [executionId, tokens] of byExecution) {
      withTokens.add(executionId);
      await Promise.all(tokens.map(([token, record]) => store.indexToken(token, record)));
      if (endedSet.has(executionId)) await store.indexEnded(workflowId, executionId);
      const recent = tokens.some(([, record]) => record.issuedAt > now() - GRACE_MS);
      if (!retained.has(executionId) && !recent) gone.push(executionId);
    }
    await store.removeOf(workflowId, gone);
    removed += gone.length;
  }
  await Promise.all(ended.filter((id) => !withTokens.has(id)).map((id) => store.removeEnded(id)));
  await store.setLayout(LAYOUT);
  return removed;
}
