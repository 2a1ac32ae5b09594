import { hostname } from 'node:os';
import { noMask } from '../../flow/masking.js';
import type { ExecutionRecord, Masker, RestartedBy } from '../../flow/types.js';
import type { KeyValueStorage } from '../../storage/index.js';
import { createGroupCommit } from '../../util/group-commit.js';
import { newId } from '../../util/ids.js';
import { startTimeOf } from './ids.js';
import type { Sealed, Sealing } from './sealed.js';
import { recordsOf, sealedOf, storedJson, withSealed } from './stored.js';
import { slottedItems, wholeItems, type ListedItem } from './slots.js';

/** The process running an execution: a host judges another process of its own machine dead or alive by it. */
export interface Owner {
  host: string;
  pid: number;
  /** Random per process: a restarted host that got its predecessor's pid (a container's pid 1) is told apart. */
  boot: string;
}

/**
 * An unfinished execution as stored: its latest record, masked as it is shown; when masking changed it, the
 * record carries its real data sealed, which {@link OpenExecutions.real} gives a resumed run.
 */
export interface OpenEntry {
  record: ExecutionRecord;
  owner: Owner;
  /** Set when the intake journal or the execution queue restarts it (the scan leaves it to them). */
  by?: RestartedBy;
}

/** This process, as an {@link Owner}. */
export const thisProcess: Owner = { host: hostname(), pid: process.pid, boot: newId('b', 10).slice(2) };

/** Whether the process that owned an entry is gone (judged on its own machine only; elsewhere: unknown, false). */
export function ownerIsGone(owner: Owner): boolean {
  if (owner.host !== thisProcess.host) return false;
  if (owner.pid === process.pid) return owner.boot !== thisProcess.boot;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Unfinished executions: see {@link createOpenExecutions}. */
export interface OpenExecutions {
  /**
   * Stores the latest record of an unfinished execution; resolves once written (writes are group-committed).
   * Where `mask` finds a secret in it, the record is stored masked with its real data sealed beside it; a
   * record that carries a sealed part (read back, then masked) is stored with it.
   */
  put(record: ExecutionRecord, by?: RestartedBy, mask?: Masker): Promise<void>;
  /** Forgets an execution once its final record is stored. */
  remove(id: string): Promise<void>;
  get(id: string): Promise<OpenEntry | null>;
  /** Every unfinished execution, newest first. */
  list(): Promise<OpenEntry[]>;
  /**
   * The newest `limit` unfinished executions that `accept` takes, reading entries newest first and no more
   * than it needs (executions of ids chosen by callers, which carry no start time, are all read).
   */
  newest(limit: number, accept: (record: ExecutionRecord) => boolean): Promise<OpenEntry[]>;
  /**
   * What a resume or a retry continues: a stored record (open or ended) with its real data, unsealed; one
   * with no sealed part (no secret in its data, or stored by an older weir) as it is.
   */
  real(record: ExecutionRecord): Promise<ExecutionRecord>;
  /** A record masked, carrying its real data sealed when masking changed it (a failed run's final record, for a retry). */
  masked(record: ExecutionRecord, mask: Masker): ExecutionRecord;
}

const enc = encodeURIComponent;
const OPEN = 'open:';
const keyOf = (id: string) => `${OPEN}${enc(id)}`;
// Entries read per storage call.
const READ_SLICE = 256;

/**
 * The checkpoints of unfinished executions: one item per execution, `open:<id>`, replaced by each checkpoint
 * and removed when the execution ends. Writes made while a batch is under way go out together once it is
 * done, and of several writes of one execution only the newest is written (a run that checkpoints faster
 * than storage writes costs one write per batch). An execution's writes are never reordered.
 * `inPlace` (weir's fs driver): each item is kept in two slots overwritten by turns ({@link slottedItems})
 * rather than replaced by a new file per checkpoint. `sealing` keeps secrets out of the stored text.
 * @example
 * const open = createOpenExecutions(storage.view('cloud', 'executions'), { inPlace: true, sealing })
 * await open.put(record)
 * const entry = await open.get(record.id)
 */
export function createOpenExecutions(store: KeyValueStorage, options: { inPlace?: boolean; sealing: Sealing }): OpenExecutions {
  const { sealing } = options;
  const items = options.inPlace ? slottedItems(store) : wholeItems(store);
  // Of several writes of one execution in a batch only the newest goes out.
  const commit = createGroupCommit<string, { json: string | null; handedOver: boolean }>((batch) =>
    Promise.all([...batch].map(([id, { json, handedOver }]) => items.write(keyOf(id), json, handedOver))).then(() => {}),
  );
  const write = (id: string, json: string | null, handedOver = false) => commit.put(id, () => ({ json, handedOver }));

  const parse = (value: unknown): OpenEntry | null => {
    const entry = (typeof value === 'string' ? JSON.parse(value) : value) as { record?: unknown; owner?: Owner; by?: RestartedBy; sealed?: Sealed } | null;
    const [record] = recordsOf({ records: entry?.record ? [entry.record] : [] });
    return record && entry ? { record: withSealed(record, entry.sealed), owner: entry.owner!, ...(entry.by ? { by: entry.by } : {}) } : null;
  };

  return {
    put(record, by, mask = noMask) {
      // A record read back (then masked) carries its sealed part; one straight from a run is sealed here if need be.
      const carried = sealedOf(record);
      const { json: stored, sealed } = carried ? { json: storedJson(record), sealed: carried } : sealing.stored(record, storedJson(record), mask);
      const json = `{"owner":${JSON.stringify(thisProcess)}${by ? `,"by":"${by}"` : ''},"record":${stored}${sealed ? `,"sealed":${JSON.stringify(sealed)}` : ''}}`;
      // A waiting execution continues in whichever host wakes it.
      return write(record.id, json, record.status === 'waiting');
    },
    remove: (id) => write(id, null),
    real: (record) => sealing.real(record),
    masked: (record, mask) => sealing.masked(record, mask),
    async get(id) {
      return parse(await items.read(keyOf(id)));
    },
    async list() {
      return read(await newestFirst(), () => true, Infinity);
    },
    async newest(limit, accept) {
      // A generated id begins with its start time, so its key sorts with its start; the others sort elsewhere.
      const listed = await newestFirst();
      const timed = ({ key }: ListedItem) => startTimeOf(decodeURIComponent(key.slice(OPEN.length))) !== null;
      const chosen = await read(listed.filter((item) => !timed(item)), accept, Infinity);
      return [...chosen, ...(await read(listed.filter(timed), accept, limit))];
    },
  };

  async function newestFirst(): Promise<ListedItem[]> {
    return (await items.list(OPEN)).sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  }

  /**
   * Entries of `listed`, in order, that `accept` takes, up to `limit`: as many as are still wanted at first,
   * then twice as many per read (where `accept` turns most down) up to {@link READ_SLICE}.
   */
  async function read(listed: ListedItem[], accept: (record: ExecutionRecord) => boolean, limit: number): Promise<OpenEntry[]> {
    const out: OpenEntry[] = [];
    for (let i = 0, size = Math.min(READ_SLICE, limit); i < listed.length && out.length < limit; i += size, size = Math.min(READ_SLICE, size * 2)) {
      for (const value of await items.readMany(listed.slice(i, i + size))) {
        const entry = parse(value);
        if (entry && accept(entry.record) && out.length < limit) out.push(entry);
      }
    }
    return out;
  }
}
