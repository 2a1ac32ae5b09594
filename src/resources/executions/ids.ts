import { randomBytes } from 'node:crypto';
import { ALPHABET } from '../../util/ids.js';

const TIME_CHARS = 9; // 32^9 ms reaches the year 3084
const RANDOM_CHARS = 10;
const PATTERN = new RegExp(`^exec_([${ALPHABET}]{${TIME_CHARS}})[${ALPHABET}]{${RANDOM_CHARS}}$`);

let pool = Buffer.alloc(0);
let at = 0;
// The time part of the last id: a busy host makes many ids per millisecond.
let lastMs = -1;
let lastPrefix = '';
// The random part of the last id, as digits of ALPHABET.
const lastRandom = new Uint8Array(RANDOM_CHARS);

/**
 * A new execution id, `exec_<start time><random>`: the start time lets a lookup by id read only the record
 * batches written since (see {@link startTimeOf}); random bytes come from a pooled block (no syscall per id).
 * Ids of one millisecond made in one process count up from the first one's random part, so they sort in the
 * order they were made: listings break ties of start time by id, and show the later of two runs first.
 * @example
 * newExecutionId() // 'exec_1kf3q8v2ma8g4gt2zaqe'
 */
export function newExecutionId(now = Date.now()): string {
  if (now !== lastMs || !countUp()) {
    if (now !== lastMs) {
      let prefix = 'exec_';
      for (let i = TIME_CHARS - 1; i >= 0; i--) prefix += ALPHABET[Math.floor(now / 32 ** i) % 32];
      lastMs = now;
      lastPrefix = prefix;
    }
    if (at + RANDOM_CHARS > pool.length) {
      pool = randomBytes(4096);
      at = 0;
    }
    for (let i = 0; i < RANDOM_CHARS; i++) lastRandom[i] = pool[at++] & 31;
  }
  let out = lastPrefix;
  for (let i = 0; i < RANDOM_CHARS; i++) out += ALPHABET[lastRandom[i]];
  return out;
}

/** Adds one to the last random part; false when it would overflow (a fresh one is drawn then). */
function countUp(): boolean {
  for (let i = RANDOM_CHARS - 1; i >= 0; i--) {
    if (lastRandom[i] < 31) {
      lastRandom[i]++;
      return true;
    }
    lastRandom[i] = 0;
  }
  return false;
}

/** The start time (ms since the epoch) in an id from {@link newExecutionId}; null for an id chosen elsewhere. */
export function startTimeOf(id: string): number | null {
  const m = PATTERN.exec(id);
  if (!m) return null;
  let ms = 0;
  for (const c of m[1]) ms = ms * 32 + ALPHABET.indexOf(c);
  return ms;
}
