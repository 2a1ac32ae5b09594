import { timingSafeEqual } from 'node:crypto';
import type { PublishedWorkflow } from '../resources/workflows/index.js';
import type { WeirBus } from '../events.js';
import type { Workflows } from '../resources/workflows/index.js';
import type { Storages } from '../storage/index.js';
import type { Capture, CaptureSession } from '../triggers/webhook/capture.js';
import { cloudProbe, createFreshness, eventProbe, noProbe, type ChangeProbe } from './changes.js';

/** What a webhook token leads to. */
export interface TokenHit {
  id: string;
  published: PublishedWorkflow | null;
  /** The flow's capture session (null when idle). */
  capture: CaptureSession | null;
}

/** What {@link createFlowIndex} returns. */
export interface FlowIndex {
  /**
   * The flow a webhook token belongs to, after a constant-time comparison with the stored token; null for
   * an unknown token. Answers synchronously from the cache when it can.
   */
  byToken(token: string): TokenHit | null | Promise<TokenHit | null>;
  /** The published copy of a flow by id or name, or null. */
  published(ref: string): Promise<PublishedWorkflow | null>;
}

/** Options of {@link createFlowIndex}. */
export interface FlowIndexOptions {
  storage: Storages;
  bus: WeirBus;
  workflows: Pick<Workflows, 'idForToken' | 'findPublished' | 'getLocal'>;
  capture: Pick<Capture, 'session'>;
  probe?: ChangeProbe;
}

interface Known extends TokenHit {
  stored: Buffer;
}

/** Cached entries per map before the map is emptied (random tokens must not grow memory). */
const MAX_ENTRIES = 10_000;

/**
 * A read cache of what the hot path needs (token -> flow, its published config and capture session),
 * valid as long as the storage probe reports no change. On the fs driver the probe runs when a request is
 * handled, so a `publish`, `delete --unpublish` or `webhook-listen` by another process is seen by the next
 * request; on other storage (Redis) the cache follows the change events of this process and of the cluster,
 * and holds an entry at most a second. A miss
 * looks the token up by its hash (`workflows.idForToken`), as storage keeps it.
 * @example
 * const index = createFlowIndex({ storage, bus, workflows, capture })
 * const hit = await index.byToken(token) // { id, published, capture } or null
 */
export function createFlowIndex(options: FlowIndexOptions): FlowIndex {
  const { workflows, capture: captures } = options;
  const probe = options.probe ?? cloudProbe(options.storage, ['workflows', 'workflow-names', 'webhook-tokens', 'webhook-capture']);
  const fresh = createFreshness(probe === noProbe ? eventProbe(options.bus) : probe);
  let generation: number | null = null;
  const tokens = new Map<string, Known | null>();
  const published = new Map<string, PublishedWorkflow | null>();

  /** The generation the caches hold now (emptied when storage changed), or null when nothing may be cached. */
  function current(): number | null {
    const gen = fresh.check();
    if (gen === null || gen !== generation) {
      tokens.clear();
      published.clear();
      generation = gen;
    }
    return gen;
  }

  function remember<T>(map: Map<string, T>, gen: number | null, key: string, value: T): T {
    if (gen !== null && gen === generation) {
      if (map.size >= MAX_ENTRIES) map.clear();
      map.set(key, value);
    }
    return value;
  }

  async function load(token: string): Promise<Known | null> {
    const id = await workflows.idForToken(token);
    if (!id) return null;
    const [pub, capture] = await Promise.all([workflows.findPublished(id), captures.session(id)]);
    const stored = pub?.webhookToken ?? (await workflows.getLocal(id).catch(() => null))?.webhookToken;
    return stored ? { id, published: pub, capture, stored: Buffer.from(stored) } : null;
  }

  /** The hash lookup already proves the token; the stored token is compared too, in constant time. */
  const verified = (token: string, known: Known | null): TokenHit | null => {
    if (!known) return null;
    const given = Buffer.from(token);
    return given.length === known.stored.length && timingSafeEqual(given, known.stored) ? known : null;
  };

  return {
    byToken(token) {
      const gen = current();
      const known = tokens.get(token);
      if (known !== undefined) return verified(token, known);
      return load(token).then((k) => verified(token, remember(tokens, gen, token, k)));
    },
    async published(ref) {
      const gen = current();
      const known = published.get(ref);
      if (known !== undefined) return known;
      return remember(published, gen, ref, await workflows.findPublished(ref));
    },
  };
}
