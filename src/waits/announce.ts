import type { Cluster } from '../cluster/index.js';
import type { ChangeProbe } from '../intake/changes.js';
import { newId } from '../util/ids.js';
import type { WaitStore } from './store.js';

/** How long a `new:` note stays for the other hosts to read. */
const NOTE_TTL_MS = 60_000;
/** How often a host looks for notes (on a probe that saw a change, or every fifth time without a probe). */
const LOOK_MS = 1000;
const CHANNEL = 'waits';
/** `<written at>_<process>_<wake key>`. */
const NOTE = /^(\d+)_([^_]+)_(.+)$/;

/** Options of {@link announcer}. */
export interface AnnouncerOptions {
  store: Pick<WaitStore, 'putNote' | 'notes' | 'removeNote'>;
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
 * `new:` notes in storage that every host reads (on a change of their folder) and drops after a minute.
 * @example
 * const announce = announcer({ store, cluster, probeDir, probe: fsProbe, add: (key) => timer.add(key, dueAtOf(key)) })
 * await announce.send(['1767225600000.exec_1.wait-1'])
 */
export function announcer(options: AnnouncerOptions) {
  const { store, cluster } = options;
  const self = newId('p', 8).slice(2);
  let stopListening: (() => Promise<void>) | null = null;
  // Notes already taken in, until they expire: each is added once.
  const seen = new Set<string>();

  async function look(): Promise<void> {
    const before = Date.now() - NOTE_TTL_MS;
    const notes = await store.notes();
    const present = new Set(notes);
    for (const note of seen) if (!present.has(note)) seen.delete(note);
    for (const note of notes) {
      const m = NOTE.exec(note);
      if (!m || Number(m[1]) < before) await store.removeNote(note).catch(() => {});
      else if (m[2] !== self && !seen.has(note)) {
        seen.add(note);
        options.add(m[3]);
      }
    }
  }

  return {
    async send(keys: string[]): Promise<void> {
      if (cluster) await cluster.publish(CHANNEL, { from: self, keys });
      else await Promise.all(keys.map((key) => store.putNote(`${Date.now()}_${self}_${key}`)));
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
      const timer = setInterval(() => {
        const sig = probe?.signature() ?? null;
        if (looking || (probe ? sig === seen : ++ticks % 5 !== 0)) return;
        seen = sig;
        looking = true;
        void look()
          .catch(() => {})
          .finally(() => (looking = false));
      }, LOOK_MS);
      timer.unref();
      stopListening = async () => clearInterval(timer);
    },
    async stop(): Promise<void> {
      await stopListening?.();
      stopListening = null;
    },
  };
}
