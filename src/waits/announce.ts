import type { Cluster } from '../cluster/index.js';
import type { ChangeProbe } from '../runtime/changes.js';
import { newId } from '../util/ids.js';
import type { WaitStore } from './store.js';

/** How long a `new:` note stays for the other hosts to read. */
export const NOTE_TTL_MS = 60_000;
/** How often a host looks for notes (on a probe that saw a change, or every fifth time without a probe). */
const LOOK_MS = 1000;
const CHANNEL = 'waits';
/** New keys are gathered this long into one note. */
const GATHER_MS = 50;
/** `<written at>_<process>_<sequence>`, holding the keys as a JSON array. */
const NOTE = /^(\d+)_([^_]+)_\d+$/;

/** Whether a note (by name) is past its minute at `now`, to be dropped by the next look: a malformed one is. */
export const noteExpired = (note: string, now: number): boolean => {
  const m = NOTE.exec(note);
  return !m || Number(m[1]) < now - NOTE_TTL_MS;
};

/** Options of {@link announcer}. */
export interface AnnouncerOptions {
  store: Pick<WaitStore, 'putNote' | 'note' | 'notes' | 'removeNote'>;
  cluster: Pick<Cluster, 'publish' | 'subscribe'> | null;
  /** The folder the notes are files in (the fs driver), watched by `probe`. */
  probeDir?: string;
  probe(dirs: string[]): ChangeProbe;
  /** Adds a wake key another process stored. */
  add(key: string): void;
}

/**
 * Tells the other processes on the same storage about new wakes, so a host's timer holds the waits that
 * other hosts and CLI runs created, not only its own: through Redis pub/sub in a cluster, else as short-lived
 * `new:` notes in storage (the keys of 50 ms in one note) that every host reads on a change of their folder,
 * and that are dropped after a minute (by the next look after that, on an idle host too). A note lost in a crash only delays the others until their next start.
 * @example
 * const announce = announcer({ store, cluster, probeDir, probe: fsProbe, add: (key) => timer.add(key, dueAtOf(key)) })
 * announce.send(['1767225600000.exec_1.wait-1'])
 */
export function announcer(options: AnnouncerOptions) {
  const { store, cluster } = options;
  const self = newId('p', 8).slice(2);
  let stopListening: (() => Promise<void>) | null = null;
  // Notes already taken in, until they expire: each is added once.
  const seen = new Set<string>();
  let pending: string[] = [];
  let gathering: ReturnType<typeof setTimeout> | null = null;
  let sequence = 0;
  const writing = new Set<Promise<void>>();

  /** Takes in the others' new notes and drops expired ones; resolves with when the next kept one expires. */
  async function look(): Promise<number> {
    const before = Date.now() - NOTE_TTL_MS;
    const notes = await store.notes();
    const present = new Set(notes);
    let nextExpiry = Infinity;
    for (const note of seen) if (!present.has(note)) seen.delete(note);
    for (const note of notes) {
      const m = NOTE.exec(note);
      if (!m || Number(m[1]) < before) {
        await store.removeNote(note).catch(() => {});
        continue;
      }
      nextExpiry = Math.min(nextExpiry, Number(m[1]) + NOTE_TTL_MS);
      if (m[2] !== self && !seen.has(note)) {
        seen.add(note);
        for (const key of (await store.note(note)) ?? []) options.add(key);
      }
    }
    return nextExpiry;
  }

  function flush(): void {
    const keys = pending;
    pending = [];
    gathering = null;
    const write = store.putNote(`${Date.now()}_${self}_${++sequence}`, keys).catch(() => {});
    writing.add(write);
    void write.finally(() => writing.delete(write));
  }

  return {
    /** Tells the others about new keys: at once through Redis, else in the next note (a write per 50 ms at most). */
    send(keys: string[]): void {
      if (cluster) return void cluster.publish(CHANNEL, { from: self, keys }).catch(() => {});
      pending.push(...keys);
      gathering ??= setTimeout(flush, GATHER_MS);
    },
    async listen(): Promise<void> {
      if (cluster) {
        stopListening = await cluster.subscribe(CHANNEL, (m: { from?: string; keys?: unknown }) => {
          if (m?.from === self || !Array.isArray(m?.keys)) return;
          for (const key of m.keys) if (typeof key === 'string') options.add(key);
        });
        return;
      }
      const probe = options.probeDir ? options.probe([options.probeDir]) : null;
      let seen: string | null = null;
      let ticks = 0;
      let looking = false;
      // A note outlives its minute only until the next look: on a host where nothing changes any more, the
      // look is made when the oldest kept note expires, so no note stays on an idle host.
      let nextExpiry = Infinity;
      const timer = setInterval(() => {
        const sig = probe?.signature() ?? null;
        const expired = Date.now() >= nextExpiry;
        if (looking || (!expired && (probe ? sig === seen : ++ticks % 5 !== 0))) return;
        seen = sig;
        looking = true;
        void look()
          .then((at) => (nextExpiry = at))
          .catch(() => {})
          .finally(() => (looking = false));
      }, LOOK_MS);
      timer.unref();
      stopListening = async () => clearInterval(timer);
    },
    async stop(): Promise<void> {
      if (gathering) {
        clearTimeout(gathering);
        flush();
      }
      await Promise.all(writing);
      await stopListening?.();
      stopListening = null;
    },
  };
}
