/**
 * Optimal string alignment distance (Levenshtein plus swaps of two neighbours): the number of one-letter
 * edits between two words, a swap counting as one (`reqeust` -> `request`).
 * @example
 * editDistance('http_reqest', 'http_request') // 1
 */
export function editDistance(a: string, b: string): number {
  // Three rows: the current one, the previous one and the one before (for swaps).
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j], before[j - 2] + 1);
    }
    before = prev;
    prev = row;
  }
  return prev[b.length];
}

/**
 * The candidate closest to a misspelt word, or null when none is close: at most 1 edit for words up to 4
 * letters, 2 up to 8, 3 beyond (case ignored), so a suggestion is a likely typo rather than a guess.
 * @example
 * nearest('http_reqest', ['set', 'http_request']) // 'http_request'
 */
export function nearest(word: string, candidates: Iterable<string>): string | null {
  const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  let best: string | null = null;
  let bestDistance = limit + 1;
  for (const candidate of candidates) {
    const d = editDistance(word.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** A name's parts (`webhook_trigger` -> webhook, trigger) hold the word, as a whole, a start or a one-letter typo. */
const holdsAsPart = (name: string, word: string): boolean =>
  word.length >= 3 &&
  name.split(/[^a-z0-9]+/).some((part) => part === word || (word.length >= 4 && part.startsWith(word)) || (word.length >= 5 && editDistance(word, part) <= 1));

/**
 * The valid names closest to an unknown one, best first (at most `max`): likely typos (as `nearest` judges
 * them), then names that hold the word, or a one-letter typo of it, as one of their parts (`webhook` and
 * `webhok` -> `webhook_trigger`), so a user who knows half a name is shown the whole. A name that differs
 * only in case is the closest of all.
 * @example
 * closest('webhook', ['webhook_trigger', 'set', 'respond']) // ['webhook_trigger']
 */
export function closest(word: string, candidates: Iterable<string>, max = 3): string[] {
  const lower = word.toLowerCase();
  const limit = word.length <= 4 ? 1 : word.length <= 8 ? 2 : 3;
  const scored: Array<[string, number]> = [];
  for (const candidate of new Set(candidates)) {
    const c = candidate.toLowerCase();
    if (candidate === word) continue;
    const d = editDistance(lower, c);
    if (d <= limit) scored.push([candidate, d]);
    else if (holdsAsPart(c, lower)) scored.push([candidate, limit + 1]);
  }
  return scored.sort((a, b) => a[1] - b[1]).slice(0, max).map(([c]) => c);
}

/**
 * The "did you mean" tail of an error about an unknown name: `; did you mean "a" or "b"?`, or '' when no
 * valid name is close. `shown` writes a name as the user types it (`json` -> `--json`), when the names are
 * compared without a prefix they all share.
 * @example
 * `unknown node type "webhook"${didYouMean('webhook', types)}` // unknown node type "webhook"; did you mean "webhook_trigger"?
 * didYouMean('jsn', ['json', 'home'], (n) => `--${n}`) // '; did you mean "--json"?'
 */
export function didYouMean(word: string, candidates: Iterable<string>, shown = (name: string) => name): string {
  const names = closest(word, candidates).map((n) => `"${shown(n)}"`);
  if (!names.length) return '';
  return `; did you mean ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`}?`;
}
