import type { TokenCounts, UsageRecord } from './types.js';

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
