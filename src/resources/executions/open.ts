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
   * The newest `limit` unfinished executions that `accept` takes, of one workflow (reading only its entries)
   * or of all, reading entries newest first and no more than it needs (executions of ids chosen by callers,
   * which carry no start time, are all read). `startedBefore` (ms) skips the entries whose id says they
   * started later. `read` gets the ids of every entry read, taken or not.
   */
  newest(limit: number, accept: (record: ExecutionRecord) => boolean, scope?: { workflowId?: string; startedBefore?: number; read?: Set<string> }): Promise<OpenEntry[]>;
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
/** An entry's marker under its workflow, `opened:<workflow>:<id>`: a listing of one workflow reads only its own entries. */
const MARKED = 'opened:';
const markerOf = (workflowId: string, id: string) => `${MARKED}${enc(workflowId)}:${enc(id)}`;
// Entries read per storage call.
const READ_SLICE = 256;
/** Executions whose marker this process wrote (and their workflow); past that it forgets them all. */
const MAX_MARKED = 10_000;
/**
 * How much earlier than its id says an execution may have started: the id may come from another host (a
 * queued execution) whose clock runs a little ahead of the one that ran it.
 */
const CLOCK_SLACK_MS = 60_000;

/** A write of the next batch: the entry's JSON (null removes it), and its marker to write first or remove after. */
interface EntryWrite {
  json: string | null;
  handedOver: boolean;
  /** The workflow of a new marker, written before the entry. */
  mark?: string;
  /** The workflow of the entry removed (its marker goes after it); unknown: read from the entry. */
  workflowId?: string;
}

/**
 * The checkpoints of unfinished executions: one item per execution, `open:<id>`, replaced by each checkpoint
 * and removed when the execution ends, and an empty marker `opened:<workflow>:<id>` written before the first
 * (a file per execution, not per checkpoint) and removed after the entry, so one workflow's executions are
 * listed without reading any other's. Entries stored before markers existed get theirs from the first
 * listing of a workflow in a process ({@link createOpenExecutions}). Writes made while a batch is under way go out together once it is
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
  const marked = new Map<string, string>();
  let unmarkedHealed = false;
  // Of several writes of one execution in a batch only the newest goes out.
  const commit = createGroupCommit<string, EntryWrite>((batch) => Promise.all([...batch].map(([id, w]) => writeEntry(id, w))).then(() => {}));

  async function writeEntry(id: string, { json, handedOver, mark, workflowId }: EntryWrite): Promise<void> {
    // Marker first, removed last: an entry is never there without its marker. Its content does not matter,
    // so it is written in place (no temporary file renamed).
    if (json !== null) {
      if (mark !== undefined) await store.setItem(markerOf(mark, id), '1', { inPlace: true });
      return items.write(keyOf(id), json, handedOver);
    }
    const of = workflowId ?? parse(await items.read(keyOf(id)))?.record.workflowId;
    await items.write(keyOf(id), null, handedOver);
    if (of !== undefined) await store.removeItem(markerOf(of, id));
  }

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
      const { id, workflowId } = record;
      const mark = marked.get(id) === workflowId ? undefined : workflowId;
      if (mark !== undefined) {
        if (marked.size >= MAX_MARKED) marked.clear();
        marked.set(id, workflowId);
      }
      // A waiting execution continues in whichever host wakes it.
      return commit.put(id, (before) => ({ json, handedOver: record.status === 'waiting', mark: mark ?? before?.mark }));
    },
    remove(id) {
      const workflowId = marked.get(id);
      marked.delete(id);
      return commit.put(id, () => ({ json: null, handedOver: false, workflowId }));
    },
    real: (record) => sealing.real(record),
    masked: (record, mask) => sealing.masked(record, mask),
    async get(id) {
      return parse(await items.read(keyOf(id)));
    },
    async list() {
      return read(await newestFirst(), () => true, Infinity);
    },
    async newest(limit, accept, { workflowId, startedBefore = Infinity, read: seen } = {}) {
      const listed = workflowId === undefined ? await newestFirst() : await newestOf(workflowId);
      // A generated id begins with its start time, so its key sorts with its start; the others sort elsewhere.
      const startOf = (item: ListedItem) => startTimeOf(idOf(item));
      // An entry found under another workflow's marker (written there by hand, or an id reused) is not this one's.
      const took = (record: ExecutionRecord) => {
        if (workflowId !== undefined && record.workflowId !== workflowId) return false;
        seen?.add(record.id);
        return accept(record);
      };
      const chosen = await read(listed.filter((item) => startOf(item) === null), took, Infinity);
      const timed = listed.filter((item) => {
        const start = startOf(item);
        return start !== null && start - CLOCK_SLACK_MS <= startedBefore;
      });
      return [...chosen, ...(await read(timed, took, limit))];
    },
  };

  function idOf(item: ListedItem): string {
    return decodeURIComponent(item.key.slice(OPEN.length));
  }

  async function newestFirst(): Promise<ListedItem[]> {
    return (await items.list(OPEN)).sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  }

  /** A workflow's entries, newest first, found by their markers: listed with the slots each may be kept in. */
  async function newestOf(workflowId: string): Promise<Array<ListedItem & { marker: string }>> {
    if (!unmarkedHealed) await markUnmarked();
    const listed = (await store.getKeys(`${MARKED}${enc(workflowId)}:`)).map((marker) => {
      const key = `${OPEN}${marker.slice(marker.lastIndexOf(':') + 1)}`;
      return { key, stored: options.inPlace ? [key, `${key}@2`] : [key], marker };
    });
    return listed.sort((a, b) => (a.key < b.key ? 1 : a.key > b.key ? -1 : 0));
  }

  /**
   * Gives the entries stored before markers existed (a home from an earlier version) theirs, once per
   * process: the only time a listing of one workflow reads the entries of others.
   */
  async function markUnmarked(): Promise<void> {
    const markers = new Set((await store.getKeys(MARKED)).map((key) => key.slice(key.lastIndexOf(':') + 1)));
    const unmarked = (await items.list(OPEN)).filter((item) => !markers.has(item.key.slice(OPEN.length)));
    const values = unmarked.length ? await items.readMany(unmarked) : [];
    await Promise.all(
      values.map((value, n) => {
        const record = parse(value)?.record;
        return record ? store.setItem(markerOf(record.workflowId, idOf(unmarked[n])), '1', { inPlace: true }) : undefined;
      }),
    );
    unmarkedHealed = true;
  }

  /**
   * Entries of `listed`, in order, that `accept` takes, up to `limit`: as many as are still wanted at first,
   * then twice as many per read (where `accept` turns most down) up to {@link READ_SLICE}.
   */
  async function read(listed: Array<ListedItem & { marker?: string }>, accept: (record: ExecutionRecord) => boolean, limit: number): Promise<OpenEntry[]> {
    const out: OpenEntry[] = [];
    for (let i = 0, size = Math.min(READ_SLICE, limit); i < listed.length && out.length < limit; i += size, size = Math.min(READ_SLICE, size * 2)) {
      const slice = listed.slice(i, i + size);
      const values = await items.readMany(slice);
      for (let n = 0; n < values.length; n++) {
        const entry = parse(values[n]);
        // A marker left without its entry (its process died between removing the two) goes, once its
        // execution is old enough that its first write (marker, then entry) cannot be under way.
        if (values[n] === null && slice[n].marker && (startTimeOf(idOf(slice[n])) ?? Infinity) < Date.now() - CLOCK_SLACK_MS) {
          await store.removeItem(slice[n].marker!);
        }
        if (entry && accept(entry.record) && out.length < limit) out.push(entry);
      }
    }
    return out;
  }
}
