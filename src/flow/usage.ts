import type { RunState, TokenCounts, UsageRecord } from './types.js';

/** A count that is not a number >= 0 (a server's null, a string) adds nothing rather than NaN. */
const tokens = (n: unknown): number => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.round(n) : 0);

/**
 * Token counts as weir adds them: whole numbers >= 0, the total the sum of prompt and completion tokens
 * when the caller's is missing.
 * @example
 * tokenCounts({ promptTokens: 12, completionTokens: 3, totalTokens: NaN }) // { promptTokens: 12, completionTokens: 3, totalTokens: 15 }
 */
export function tokenCounts(counts: TokenCounts): TokenCounts {
  const promptTokens = tokens(counts?.promptTokens);
  const completionTokens = tokens(counts?.completionTokens);
  return { promptTokens, completionTokens, totalTokens: tokens(counts?.totalTokens) || promptTokens + completionTokens };
}

/**
 * Adds tokens of `model` ({@link tokenCounts}) to a usage record (made when there is none) and returns it:
 * the totals and the model's own line.
 * @example
 * rec.usage = addUsage(rec.usage, 'gpt-4o-mini', { promptTokens: 12, completionTokens: 3, totalTokens: 15 })
 */
export function addUsage(into: UsageRecord | undefined, model: string, counts: TokenCounts): UsageRecord {
  const { promptTokens: prompt, completionTokens: completion, totalTokens: total } = tokenCounts(counts);
  const usage = into ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0, byModel: {} };
  usage.promptTokens += prompt;
  usage.completionTokens += completion;
  usage.totalTokens += total;
  const line = (usage.byModel[model] ??= { promptTokens: 0, completionTokens: 0, totalTokens: 0 });
  line.promptTokens += prompt;
  line.completionTokens += completion;
  line.totalTokens += total;
  return usage;
}

/** Adds a whole usage record (a node's, to its execution's) model by model. */
export function addUsageRecord(into: UsageRecord | undefined, from: UsageRecord): UsageRecord {
  let usage = into;
  for (const [model, counts] of Object.entries(from.byModel)) usage = addUsage(usage, model, counts);
  return usage ?? { promptTokens: 0, completionTokens: 0, totalTokens: 0, byModel: {} };
}

/** A copy of a usage record, to go on adding to without changing the one it came from. */
export const copyUsage = (usage: UsageRecord): UsageRecord => addUsageRecord(undefined, usage);

/**
 * The tokens the nodes of a walk reported (`ctx.recordUsage`), by node index, until their records are
 * written; each report also adds to the execution's total and goes to `onReport`.
 * @example
 * const usages = new NodeUsages(nodes.length, run, (index, model, counts) => bus.emit('llm:usage', { model, ...counts }))
 * usages.add(3, 'gpt-4o-mini', { promptTokens: 12, completionTokens: 3, totalTokens: 15 })
 * record.usage = usages.of(3)
 */
export class NodeUsages {
  // Made on the first report: a walk of nodes that call no model holds no usage at all.
  #byNode: Array<UsageRecord | undefined> | undefined;

  constructor(
    readonly size: number,
    readonly run: RunState,
    readonly onReport: (index: number, model: string, counts: TokenCounts) => void,
  ) {}

  add(index: number, model: string, counts: TokenCounts): void {
    const c = tokenCounts(counts);
    this.#byNode ??= new Array(this.size);
    this.#byNode[index] = addUsage(this.#byNode[index], model, c);
    this.run.record.usage = addUsage(this.run.record.usage, model, c);
    this.onReport(index, model, c);
  }

  of(index: number): UsageRecord | undefined {
    return this.#byNode?.[index];
  }

  /** A node that goes on from an earlier run of this execution (its progress, its wait) keeps the tokens it took then. */
  carry(index: number, usage: UsageRecord): void {
    this.#byNode ??= new Array(this.size);
    this.#byNode[index] = copyUsage(usage);
    this.run.record.usage = addUsageRecord(this.run.record.usage, usage);
  }
}
