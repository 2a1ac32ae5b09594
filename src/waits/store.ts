import { decodeKeyPart, encodeKeyPart } from '../storage/keys.js';
import type { KeyValueStorage } from '../storage/index.js';

/** One wake the index holds: when, which execution, which of its waiting nodes. */
export interface Due {
  at: number;
  executionId: string;
  nodeId: string;
}

/**
 * The key of a wake: `<at>.<execution id>.<node id>`, parts percent-encoded (so `.` separates them). The key
 * alone describes the wake, so loading the index lists keys and reads no record.
 */
export const dueKey = (d: Due): string => `${d.at}.${encodeKeyPart(d.executionId)}.${encodeKeyPart(d.nodeId)}`;

/** The wake a key names, or null for a key that is not one. */
export function parseDueKey(key: string): Due | null {
  const [at, executionId, nodeId, extra] = key.split('.');
  const time = Number(at);
  if (extra !== undefined || !nodeId || !Number.isSafeInteger(time)) return null;
  const id = decodeKeyPart(executionId);
  const node = decodeKeyPart(nodeId);
  return id && node ? { at: time, executionId: id, nodeId: node } : null;
}

/** The time of a wake key (its leading number), without decoding the rest. */
export const dueAtOf = (key: string): number => Number(key.slice(0, key.indexOf('.')));

/** A resume token's record: the execution it resumes, when it was issued, and whether it was used. */
export interface TokenRecord {
  executionId: string;
  workflowId: string;
  issuedAt: number;
  used?: true;
}

/** A call that reached a resume URL before its execution got to its webhook wait. */
export interface EarlyCall {
  data: unknown;
  at: number;
}

/**
 * Where waits live in cloud storage (the `waits` prefix): `due:<key>` per wake ({@link dueKey}), `token:`
 * the resume tokens, `early:` calls that came before their wait, `ended:` when an execution's last webhook wait
 * ended (tokens issued before it are spent), `new:` short-lived notes of new wakes for the other hosts.
 * @example
 * const store = createWaitStore(storage.view('cloud', 'waits'))
 * await store.addDue({ at: Date.now() + 60_000, executionId, nodeId: 'wait-1' })
 */
export function createWaitStore(store: KeyValueStorage) {
  const enc = encodeKeyPart;
  const parse = <T>(v: unknown): T | null => (v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as T));
  return {
    addDue: (d: Due) => store.setItem(`due:${dueKey(d)}`, '1'),
    removeDue: (key: string) => store.removeItem(`due:${key}`),
    /** Every wake key. */
    async dueKeys(): Promise<string[]> {
      return (await store.getKeys('due:')).map((k) => k.slice(4));
    },
    putToken: (token: string, record: TokenRecord) => store.setItem(`token:${token}`, JSON.stringify(record)),
    async token(token: string): Promise<TokenRecord | null> {
      return parse<TokenRecord>(await store.getItem(`token:${token}`));
    },
    putEarly: (executionId: string, call: EarlyCall) => store.setItem(`early:${enc(executionId)}`, JSON.stringify(call)),
    async early(executionId: string): Promise<EarlyCall | null> {
      return parse<EarlyCall>(await store.getItem(`early:${enc(executionId)}`));
    },
    removeEarly: (executionId: string) => store.removeItem(`early:${enc(executionId)}`),
    putEnded: (executionId: string, at: number) => store.setItem(`ended:${enc(executionId)}`, String(at)),
    putNote: (note: string, keys: string[]) => store.setItem(`new:${note}`, JSON.stringify(keys)),
    async note(note: string): Promise<string[] | null> {
      return parse<string[]>(await store.getItem(`new:${note}`));
    },
    removeNote: (note: string) => store.removeItem(`new:${note}`),
    async notes(): Promise<string[]> {
      return (await store.getKeys('new:')).map((k) => k.slice(4));
    },
    async ended(executionId: string): Promise<number> {
      return Number(await store.getItem(`ended:${enc(executionId)}`)) || 0;
    },
  };
}

export type WaitStore = ReturnType<typeof createWaitStore>;
