import { hash, randomBytes, timingSafeEqual } from 'node:crypto';
import { WeirError } from '../errors.js';
import type { Executions } from '../resources/executions/index.js';
import type { KeyValueStorage } from '../storage/types.js';
import type { ExecutionStatusView } from '../types/executions.js';

/** Where the status key lives in its cloud view: every host sharing the cloud storage signs with it. */
const KEY_ITEM = 'status:key';
/** 22 base64url characters of the MAC: 132 bits. */
const MAC_CHARS = 22;

/** What {@link createStatusTokens} returns. */
export interface StatusTokens {
  /** Loads (or creates) the key; later calls reuse it. A host calls it at start, so no request waits for it. */
  ready(): Promise<void>;
  /** The status token of an execution, `<executionId>.<mac>`: synchronous once the key is loaded. */
  tokenOf(executionId: string): string | Promise<string>;
  /** The execution id a token names, or null when its MAC is not this key's (forged, altered, malformed). */
  idOf(token: string): Promise<string | null>;
}

/**
 * Per-execution status tokens: the execution id and a MAC of it under a 32-byte key created once and kept
 * in the cloud mount, so a token is unguessable, needs no record of its own, and every host sharing the
 * cloud storage (Redis in scale-out) accepts it, before and after restarts.
 * @example
 * const tokens = createStatusTokens(storage.view('cloud', 'executions'))
 * await tokens.ready()
 * const token = tokens.tokenOf('exec_1kf3q8v2ma8g4gt2zaqe') // 'exec_1kf3q8v2ma8g4gt2zaqe.Qm9...'
 * await tokens.idOf(token) // 'exec_1kf3q8v2ma8g4gt2zaqe'
 */
export function createStatusTokens(store: KeyValueStorage): StatusTokens {
  // The key as base64url text: what the MAC hashes.
  let key: string | null = null;
  let loading: Promise<string> | null = null;

  /** Reads the key, or creates it: two processes creating it at once both end up with the one stored last. */
  async function load(): Promise<string> {
    const stored = await store.getItem<{ key: string }>(KEY_ITEM);
    if (stored?.key) return stored.key;
    await store.setItem(KEY_ITEM, { key: randomBytes(32).toString('base64url') });
    const kept = await store.getItem<{ key: string }>(KEY_ITEM);
    if (!kept?.key) throw new WeirError('INTERNAL', 'the status key could not be stored in the cloud storage');
    return kept.key;
  }

  const keyNow = (): Promise<string> => {
    loading ??= load().then(
      (k) => (key = k),
      (err) => {
        loading = null;
        throw err;
      },
    );
    return loading;
  };

  // One secret-prefix hash, truncated: only 132 of SHA-256's 256 bits leave, so nobody can extend the hash
  // (a length extension needs the whole state), and one hash per answer is half HMAC's nesting on the
  // durable intake's path.
  const mac = (k: string, id: string) => hash('sha256', `${k}.${id}`, 'base64url').slice(0, MAC_CHARS);

  return {
    async ready() {
      await keyNow();
    },
    tokenOf(executionId) {
      if (key) return `${executionId}.${mac(key, executionId)}`;
      return keyNow().then((k) => `${executionId}.${mac(k, executionId)}`);
    },
    async idOf(token) {
      const dot = token.lastIndexOf('.');
      if (dot < 1 || token.length - dot - 1 !== MAC_CHARS) return null;
      const id = token.slice(0, dot);
      // Compared as text: decoding would forgive stray characters and the unused low bits of the last one.
      const given = Buffer.from(token.slice(dot + 1));
      const expected = Buffer.from(mac(key ?? (await keyNow()), id));
      return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
    },
  };
}

/**
 * What a status lookup answers for an execution named by a valid token: its stored record's status (with
 * `result` on success, `error` on error), `queued` while it was accepted here and not started yet, else null.
 * @example
 * const status = executionStatus({ tokens, executions, pending: (id) => webhooks.pending(id) })
 * await status(token) // { executionId, status: 'running' } or null
 */
export function executionStatus(deps: {
  tokens: Pick<StatusTokens, 'idOf'>;
  executions: Pick<Executions, 'get'>;
  pending(executionId: string): boolean;
}): (token: string) => Promise<ExecutionStatusView | null> {
  return async (token) => {
    const executionId = await deps.tokens.idOf(token);
    if (!executionId) return null;
    // Asked first: a delivery that starts and ends during the lookup below still answers, as `queued`.
    const waiting = deps.pending(executionId);
    try {
      const record = await deps.executions.get(executionId);
      const view: ExecutionStatusView = { executionId, status: record.status };
      if (record.status === 'success') view.result = record.result ?? null;
      if (record.debouncedInto) view.debouncedInto = record.debouncedInto;
      if (record.status === 'error' && record.error) view.error = { code: record.error.code, message: record.error.message, ...(record.error.node ? { node: record.error.node } : {}) };
      return view;
    } catch (err) {
      if ((err as WeirError).code !== 'NOT_FOUND') throw err;
      return waiting ? { executionId, status: 'queued' } : null;
    }
  };
}
