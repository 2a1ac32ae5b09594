import { timingSafeEqual } from 'node:crypto';
import type { PublishedWorkflow } from '../resources/workflows/index.js';
import type { Weir } from '../weir.js';
import { cloudProbe, createFreshness, type ChangeProbe } from './changes.js';
import type { CaptureSession } from './capture.js';

/** What {@link createFlowIndex} returns. */
export interface FlowIndex {
  /** The flow a webhook token belongs to (published copy or null), after a constant-time token check. */
  byToken(token: string): Promise<{ id: string; published: PublishedWorkflow | null } | null>;
  /** The published copy of a flow by id or name, or null. */
  published(ref: string): Promise<PublishedWorkflow | null>;
  /** The capture session of a flow (null when idle). */
  capture(id: string): Promise<CaptureSession | null>;
}

/** Cached entries per map before the map is emptied (random tokens must not grow memory). */
const MAX_ENTRIES = 10_000;

/**
 * A read cache of what the hot path needs (token -> flow, published configs, capture sessions), valid as
 * long as the storage probe reports no change. The probe runs when a request is handled, so a `publish`,
 * `delete --unpublish` or `webhook-listen` by another process is seen by the next request.
 * @example
 * const index = createFlowIndex({ weir })
 * const hit = await index.byToken(token) // { id, published } or null
 */
export function createFlowIndex(options: { weir: Weir; probe?: ChangeProbe }): FlowIndex {
  const { weir } = options;
  const fresh = createFreshness(options.probe ?? cloudProbe(weir.storage, ['workflows', 'workflow-names', 'webhook-tokens', 'webhook-capture']));
  let generation: number | null = null;
  const maps = { ids: new Map<string, unknown>(), published: new Map<string, unknown>(), capture: new Map<string, unknown>() };

  /** A cached loader: the value for `key` as of the current generation. */
  const cached = <T>(map: Map<string, unknown>, load: (key: string) => Promise<T>) =>
    async (key: string): Promise<T> => {
      const gen = fresh.check();
      if (gen === null) return load(key);
      if (gen !== generation) {
        generation = gen;
        for (const m of Object.values(maps)) m.clear();
      }
      if (map.has(key)) return map.get(key) as T;
      const value = await load(key);
      if (generation === gen) {
        if (map.size >= MAX_ENTRIES) map.clear();
        map.set(key, value);
      }
      return value;
    };

  const idForToken = cached(maps.ids, (token) => weir.workflows.idForToken(token));
  const published = cached(maps.published, (ref) => weir.workflows.findPublished(ref));
  const capture = cached(maps.capture, (id) => weir.capture.session(id));

  return {
    async byToken(token) {
      const id = await idForToken(token);
      if (!id) return null;
      const pub = await published(id);
      // The hash lookup already proves the token; the stored token is compared too, in constant time.
      const stored = pub?.webhookToken ?? (await weir.workflows.getLocal(id).catch(() => null))?.webhookToken;
      return stored && sameToken(token, stored) ? { id, published: pub } : null;
    },
    published,
    capture,
  };
}

/** Compares two tokens without leaking where they differ. */
export function sameToken(given: string, stored: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(stored);
  return a.length === b.length && timingSafeEqual(a, b);
}
