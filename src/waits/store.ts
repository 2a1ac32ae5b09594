import { decodeKeyPart, encodeKeyPart } from '../storage/keys.js';
import type { KeyValueStorage } from '../storage/index.js';

/** One wake the index holds: when, which execution, which of its waiting nodes (and, waiting on children, which ended). */
export interface Due {
  at: number;
  executionId: string;
  nodeId: string;
  /** A wait on children: the child whose end this wake is (each has its own key, so none hides another). */
  childId?: string;
}

/**
 * The key of a wake: `<at>.<execution id>.<node id>[.<child id>]`, parts percent-encoded (so `.` separates
 * them). The key alone describes the wake, so loading the index lists keys and reads no record.
 */
export const dueKey = (d: Due): string => `${d.at}.${encodeKeyPart(d.executionId)}.${encodeKeyPart(d.nodeId)}${d.childId ? `.${encodeKeyPart(d.childId)}` : ''}`;

/** The wake a key names, or null for a key that is not one. */
export function parseDueKey(key: string): Due | null {
  const [at, executionId, nodeId, childId, extra] = key.split('.');
  const time = Number(at);
  if (extra !== undefined || !nodeId || !Number.isSafeInteger(time)) return null;
  const id = decodeKeyPart(executionId);
  const node = decodeKeyPart(nodeId);
  const child = childId === undefined ? undefined : decodeKeyPart(childId);
  if (!id || !node || child === '' || child === null) return null;
  return child ? { at: time, executionId: id, nodeId: node, childId: child } : { at: time, executionId: id, nodeId: node };
}

/** The time of a wake key (its leading number), without decoding the rest. */
export const dueAtOf = (key: string): number => Number(key.slice(0, key.indexOf('.')));

/** A resume token's record: the execution it resumes, when it was issued, and whether it was used. */
export interface TokenRecord {
  executionId: string;
  workflowId: string;
  issuedAt: number;
  used?: true;
  /** An approval URL's token (`$execution.approvalUrl`): its call decides an approval wait, not a webhook wait. */
  kind?: 'approval';
}

/** A decision on an execution's approval wait, kept until a wake of that wait used it up (`at` tells decisions apart). */
export interface Decision {
  approved: boolean;
  reason?: string;
  at: number;
}

/** A call that reached a resume URL before its execution got to its webhook wait. */
export interface EarlyCall {
  data: unknown;
  at: number;
}

/** The name of an execution's `of:` entry that stands for its `ended:` record (a token is 32 characters). */
const ENDED = 'ended';

/**
 * Where waits live in cloud storage (the `waits` prefix): `due:<key>` per wake ({@link dueKey}), `token:`
 * the resume tokens, `early:` calls that came before their wait, `ended:` when an execution's last webhook wait
 * ended (tokens issued before it are spent), `new:` short-lived notes of new wakes for the other hosts.
 * Tokens, kept calls and ended times belong to an execution and go when its record is pruned: each token and
 * each ended time is also listed as `of:<workflow>:<execution>:<token or "ended">`, written alongside it, so a
 * prune finds a workflow's executions that have any (one listing) and each one's tokens without reading them.
 * @example
 * const store = createWaitStore(storage.view('cloud', 'waits'))
 * await store.addDue({ at: Date.now() + 60_000, executionId, nodeId: 'wait-1' })
 */
export function createWaitStore(store: KeyValueStorage) {
  const enc = encodeKeyPart;
  const ofKey = (workflowId: string, executionId: string, name: string) => `of:${enc(workflowId)}:${enc(executionId)}:${name}`;
  const parse = <T>(v: unknown): T | null => (v === null || v === undefined ? null : ((typeof v === 'string' ? JSON.parse(v) : v) as T));
  const decision = async (executionId: string): Promise<Decision | null> => parse<Decision>(await store.getItem(`decision:${enc(executionId)}`));
  return {
    addDue: (d: Due) => store.setItem(`due:${dueKey(d)}`, '1'),
    removeDue: (key: string) => store.removeItem(`due:${key}`),
    /** Every wake key. */
    async dueKeys(): Promise<string[]> {
      return (await store.getKeys('due:')).map((k) => k.slice(4));
    },
    /**
     * Stores a token with its `of:` entry (both at once: issuing a URL waits for one round trip). A rewrite
     * (a token marked used) writes the entry again: a prune that removed both between the read and the
     * rewrite would otherwise leave a token that no later prune finds.
     */
    putToken: (token: string, record: TokenRecord) =>
      Promise.all([store.setItem(`token:${token}`, JSON.stringify(record)), store.setItem(ofKey(record.workflowId, record.executionId, token), '1')]).then(() => {}),
    /** Every token key's token (legacy ones, stored without an `of:` entry, are found among them). */
    async tokens(): Promise<string[]> {
      return (await store.getKeys('token:')).map((k) => k.slice(6));
    },
    async token(token: string): Promise<TokenRecord | null> {
      return parse<TokenRecord>(await store.getItem(`token:${token}`));
    },
    putEarly: (executionId: string, call: EarlyCall) => store.setItem(`early:${enc(executionId)}`, JSON.stringify(call)),
    async early(executionId: string): Promise<EarlyCall | null> {
      return parse<EarlyCall>(await store.getItem(`early:${enc(executionId)}`));
    },
    removeEarly: (executionId: string) => store.removeItem(`early:${enc(executionId)}`),
    putDecision: (executionId: string, decision: Decision) => store.setItem(`decision:${enc(executionId)}`, JSON.stringify(decision)),
    decision,
    /** Removes the decision made at `at` (one made since then, for the next approval wait, stays). */
    async removeDecision(executionId: string, at: number): Promise<void> {
      if ((await decision(executionId))?.at === at) await store.removeItem(`decision:${enc(executionId)}`);
    },
    putEnded: (workflowId: string, executionId: string, at: number) =>
      Promise.all([store.setItem(`ended:${enc(executionId)}`, String(at)), store.setItem(ofKey(workflowId, executionId, ENDED), '1')]).then(() => {}),
    /** Execution ids with an `ended:` record (legacy ones included). */
    async endedIds(): Promise<string[]> {
      return (await store.getKeys('ended:')).map((k) => decodeKeyPart(k.slice(6))).filter((id): id is string => id !== null);
    },
    /** Lists an `ended:` record written before the `of:` entries existed under its execution. */
    indexEnded: (workflowId: string, executionId: string) => store.setItem(ofKey(workflowId, executionId, ENDED), '1'),
    removeEnded: (executionId: string) => store.removeItem(`ended:${enc(executionId)}`),
    /** Lists a token written before the `of:` entries existed under its execution. */
    indexToken: (token: string, record: TokenRecord) => store.setItem(ofKey(record.workflowId, record.executionId, token), '1'),
    /** The tokens and the execution ids that have `of:` entries. */
    async indexed(): Promise<{ tokens: Set<string>; executions: Set<string> }> {
      const tokens = new Set<string>();
      const executions = new Set<string>();
      for (const key of await store.getKeys('of:')) {
        const [, , id, name] = key.split(':');
        executions.add(decodeKeyPart(id) ?? id);
        if (name !== ENDED) tokens.add(name);
      }
      return { tokens, executions };
    },
    /** The records of these tokens (absent ones left out). */
    async tokenRecords(tokens: string[]): Promise<Map<string, TokenRecord>> {
      const out = new Map<string, TokenRecord>();
      for (const { key, value } of await store.getItems(tokens.map((t) => `token:${t}`))) {
        const record = parse<TokenRecord>(value);
        if (record?.executionId && record.workflowId) out.set(key.slice(6), record);
      }
      return out;
    },
    /** Which layout the stored records follow: 2 once every token and ended time has its `of:` entry. */
    async layout(): Promise<number> {
      return Number(await store.getItem('layout')) || 1;
    },
    setLayout: (layout: number) => store.setItem('layout', String(layout)),
    /** The ids of a workflow's executions that have tokens, a kept call or an ended time. */
    async executionsOf(workflowId: string): Promise<string[]> {
      const ids = new Set<string>();
      for (const key of await store.getKeys(`of:${enc(workflowId)}:`)) ids.add(key.split(':')[2]);
      return [...ids].map(decodeKeyPart).filter((id): id is string => id !== null);
    },
    /**
     * Removes the tokens, kept call and ended time of executions whose records are gone; the `of:` entries
     * last, so a removal cut short is found and done again.
     */
    async removeOf(workflowId: string, executionIds: string[]): Promise<void> {
      await Promise.all(
        executionIds.map(async (id) => {
          const names = (await store.getKeys(`of:${enc(workflowId)}:${enc(id)}:`)).map((k) => k.slice(k.lastIndexOf(':') + 1));
          await Promise.all([
            ...names.filter((name) => name !== ENDED).map((token) => store.removeItem(`token:${token}`)),
            store.removeItem(`early:${enc(id)}`),
            store.removeItem(`decision:${enc(id)}`),
            store.removeItem(`ended:${enc(id)}`),
          ]);
          await store.clear(`of:${enc(workflowId)}:${enc(id)}`);
        }),
      );
    },
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
