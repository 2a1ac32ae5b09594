import type { Cluster } from '../../cluster/index.js';
import type { ChangeProbe } from '../../runtime/changes.js';
import type { KeyValueStorage } from '../../storage/index.js';

/** How often a process with running executions looks for cancel requests in storage. */
export const CANCEL_CHECK_MS = 250;
const CHANNEL = 'executions:cancel';
const enc = encodeURIComponent;
/**
 * A request older than this is stale: its maker waits 10 s for the cancel and then withdraws it, so one still
 * there was left by a maker that died meanwhile (a killed CLI).
 */
export const CANCEL_REQUEST_TTL_MS = 5 * 60_000;
/** How often a process following requests removes stale ones, busy or not (an idle host keeps none). */
const SWEEP_MS = 60_000;

/** Cancel requests for executions running in another process: see {@link createCancelRequests}. */
export interface CancelRequests {
  /** Asks whichever process runs `id` to cancel it. */
  request(id: string): Promise<void>;
  /** Takes a request back (once it was carried out, or given up on). */
  withdraw(id: string): Promise<void>;
  /** Removes the requests made before `before` (ms), stale ones; resolves with how many went. */
  expire(before: number): Promise<number>;
  /**
   * Carries out requests here: `cancel(id)` says whether `id` ran here (its request is then removed). Call
   * `busy(true)` while executions run here, `busy(false)` when none does; `close()` stops listening.
   */
  follow(cancel: (id: string) => boolean): { busy(on: boolean): void; close(): Promise<void> };
}

/**
 * Cancel requests as items `cancel:<id>` of the cloud `executions` view, announced on the cluster's pub/sub
 * when there is one. A process looks at the prefix every {@link CANCEL_CHECK_MS} only while it runs
 * executions, and skips the read when the probe says the prefix did not change (the fs driver); storage
 * is the fallback for a missed message, and the only channel without Redis. A follower removes stale
 * requests (older than {@link CANCEL_REQUEST_TTL_MS}) once a minute, idle or not.
 * @example
 * const requests = createCancelRequests({ store: storage.view('cloud', 'executions'), probe, cluster })
 * await requests.request('exec_123')
 */
export function createCancelRequests({ store, probe, cluster, sweepMs = SWEEP_MS }: { store: KeyValueStorage; probe: ChangeProbe; cluster: Cluster | null; sweepMs?: number }): CancelRequests {
  const withdraw = (id: string) => store.removeItem(`cancel:${enc(id)}`);
  async function expire(before: number): Promise<number> {
    const keys = await store.getKeys('cancel:');
    const items = keys.length ? await store.getItems(keys) : [];
    const stale = items.filter(({ value }) => {
      const at = Date.parse((typeof value === 'string' ? (JSON.parse(value) as { at?: string }) : (value as { at?: string } | null))?.at ?? '');
      return !(at >= before);
    });
    await Promise.all(stale.map(({ key }) => store.removeItem(key)));
    return stale.length;
  }
  return {
    async request(id) {
      await store.setItem(`cancel:${enc(id)}`, JSON.stringify({ at: new Date().toISOString() }));
      await cluster?.publish(CHANNEL, { id }).catch(() => {});
    },
    withdraw,
    expire,
    follow(cancel) {
      let timer: ReturnType<typeof setInterval> | null = null;
      const sweep = setInterval(() => void expire(Date.now() - CANCEL_REQUEST_TTL_MS).catch(() => {}), sweepMs);
      sweep.unref?.();
      let active = false;
      let checking = false;
      let seen: string | null = null;
      let unsubscribe: Promise<(() => Promise<void>) | null> | null = null;
      // Requests read (or announced) for runs not here: a job a queue worker has taken may register its run
      // only after its cancel request was read. While any is pending, storage is read again on each check
      // even when the probe says nothing changed; requests are withdrawn by whoever made them.
      const pending = new Set<string>();
      const carryOut = (id: string) => {
        if (cancel(id)) {
          pending.delete(id);
          void withdraw(id).catch(() => {});
        } else pending.add(id);
      };
      const check = async () => {
        // The timer outlives a moment without runs: a host running one short execution after another
        // keeps one timer rather than making one per execution.
        if (!active) {
          clearInterval(timer!);
          timer = null;
          seen = null;
          pending.clear();
          return;
        }
        const signature = probe.signature();
        if (checking || (signature !== null && signature === seen && !pending.size)) return;
        checking = true;
        try {
          const keys = await store.getKeys('cancel:');
          pending.clear();
          for (const key of keys) carryOut(decodeURIComponent(key.slice(key.lastIndexOf(':') + 1)));
          seen = signature;
        } catch {
          // Storage hiccup: the next check reads again.
        } finally {
          checking = false;
        }
      };
      return {
        busy(on) {
          active = on;
          if (!on || timer) return;
          timer = setInterval(check, CANCEL_CHECK_MS);
          timer.unref?.();
          unsubscribe ??= cluster ? cluster.subscribe(CHANNEL, (m: { id?: unknown }) => typeof m?.id === 'string' && carryOut(m.id)).catch(() => null) : null;
        },
        async close() {
          clearInterval(sweep);
          if (timer) clearInterval(timer);
          timer = null;
          active = false;
          await (await unsubscribe)?.().catch(() => {});
        },
      };
    },
  };
}
