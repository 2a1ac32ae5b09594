import { CLAIM_TTL_MS } from '../cluster/claims.js';
import { CANCEL_REQUEST_TTL_MS } from '../resources/executions/cancel-requests.js';
import { parseBatch, type Batch } from '../resources/executions/batch-keys.js';
import { doomedBatches, type RetentionLimits } from '../resources/executions/retention.js';
import { recordsOf } from '../resources/executions/stored.js';
import type { KeyValueStorage } from '../storage/types.js';
import { noteExpired } from '../waits/announce.js';
import type { Entry } from './files.js';

/** What retention removes of one kind: how many entries, their bytes (null when not known), records for batches. */
export interface Removal {
  count: number;
  bytes: number | null;
  records?: number;
}

const FINISHED = new Set(['success', 'error', 'cancelled', 'debounced']);
/** Batches read at once. */
const SLICE = 64;
const decode = (part: string) => {
  try {
    return decodeURIComponent(part);
  } catch {
    return part;
  }
};

/** What a prune and the expiries would remove now, by kind: see {@link retentionRemoves}. */
export interface RetentionInput {
  /** The `cloud` mount (batches, `ids:` entries and cancel requests are read from it). */
  cloud: KeyValueStorage;
  /** Every key of the `cloud` mount. */
  cloudEntries: Entry[];
  /** The files of the home outside the mounts (claims). */
  homeEntries: Entry[];
  limits: RetentionLimits;
  now: number;
}

/**
 * What retention removes at `now`, by kind, without removing anything: each workflow's batches beyond its
 * limits (the rule of a prune), the `ids:` entries pointing at them, the wait tokens, kept calls, ended
 * markers and their links of the executions whose final record goes with them (unless still open), and the
 * time-bounded records past their time (wait notes, stale cancel requests, old claims).
 * @example
 * const removes = await retentionRemoves({ cloud: storage.cloud, cloudEntries, homeEntries, limits: config.executions ?? {}, now: Date.now() })
 * removes.get('execution batches') // { count: 12, bytes: 48213, records: 950 }
 */
export async function retentionRemoves(input: RetentionInput): Promise<Map<string, Removal>> {
  const { cloud, now } = input;
  const out = new Map<string, Removal>();
  const add = (kind: string, entry: Entry, records = 0) => {
    const r = out.get(kind) ?? out.set(kind, { count: 0, bytes: 0 }).get(kind)!;
    r.count++;
    r.bytes = r.bytes === null || entry.bytes === null ? null : r.bytes + entry.bytes;
    if (kind === 'execution batches') r.records = (r.records ?? 0) + records;
  };
  const byName = new Map(input.cloudEntries.map((e) => [e.name, e]));
  const under = (prefix: string) => input.cloudEntries.filter((e) => e.name.startsWith(prefix));

  // Each workflow's batches, newest first, and the ones its prune removes.
  const byWorkflow = new Map<string, Batch[]>();
  for (const entry of under('executions:runs:')) {
    const batch = parseBatch(entry.name);
    const workflow = entry.name.split(':')[2];
    if (batch && workflow) (byWorkflow.get(workflow) ?? byWorkflow.set(workflow, []).get(workflow)!).push(batch);
  }
  const doomed: Batch[] = [];
  const doomedOf = new Map<string, Batch[]>();
  for (const [workflow, batches] of byWorkflow) {
    batches.sort((a, b) => (a.tail < b.tail ? -1 : a.tail > b.tail ? 1 : 0));
    const going = doomedBatches(batches, input.limits, now);
    doomedOf.set(decode(workflow), going);
    doomed.push(...going);
    for (const b of going) add('execution batches', byName.get(b.key)!, b.count);
  }

  // `ids:` entries pointing at a batch that goes.
  const doomedKeys = new Set(doomed.map((b) => b.key.slice('executions:'.length)));
  const ids = under('executions:ids:');
  if (ids.length && doomed.some((b) => b.indexed)) {
    for (const { key, value } of await cloud.getItems(ids.map((e) => e.name))) {
      if (doomedKeys.has((value as { key?: string } | null)?.key ?? '')) add('execution ids', byName.get(key)!);
    }
  }

  // Linked wait records: workflow -> execution -> its `of:` entries.
  const links = new Map<string, Map<string, Entry[]>>();
  for (const entry of under('waits:of:')) {
    const [, , workflow, execution] = entry.name.split(':');
    const executions = links.get(decode(workflow)) ?? links.set(decode(workflow), new Map()).get(decode(workflow))!;
    (executions.get(decode(execution)) ?? executions.set(decode(execution), []).get(decode(execution))!).push(entry);
  }
  for (const [workflow, going] of doomedOf) {
    const candidates = links.get(workflow);
    if (!candidates?.size || !going.length) continue;
    const ending = new Set<string>();
    for (let i = 0; i < going.length; i += SLICE) {
      for (const { value } of await cloud.getItems(going.slice(i, i + SLICE).map((b) => b.key))) {
        for (const r of recordsOf(value)) if (candidates.has(r.id) && FINISHED.has(r.status)) ending.add(r.id);
      }
    }
    for (const id of ending) {
      const open = `executions:open:${encodeURIComponent(id)}`;
      if (byName.has(open) || byName.has(`${open}@2`)) continue;
      for (const link of candidates.get(id)!) {
        add('wait links', link);
        const name = link.name.slice(link.name.lastIndexOf(':') + 1);
        const token = byName.get(`waits:token:${name}`);
        if (name !== 'ended' && token) add('wait tokens', token);
      }
      const enc = link0(candidates.get(id)!);
      for (const [kind, key] of [['early calls', `waits:early:${enc}`], ['ended markers', `waits:ended:${enc}`]]) {
        const entry = byName.get(key);
        if (entry) add(kind, entry);
      }
    }
  }

  // Time-bounded records past their time.
  for (const entry of under('waits:new:')) if (noteExpired(entry.name.slice('waits:new:'.length), now)) add('wait notes', entry);
  const requests = under('executions:cancel:');
  if (requests.length) {
    for (const { key, value } of await cloud.getItems(requests.map((e) => e.name))) {
      const at = Date.parse((typeof value === 'string' ? JSON.parse(value) : (value as { at?: string } | null))?.at ?? '');
      if (!(at >= now - CANCEL_REQUEST_TTL_MS)) add('cancel requests', byName.get(key)!);
    }
  }
  for (const entry of input.homeEntries) {
    const claim = /^run\/([^/]+)-claims\/(\d+)-/.exec(entry.name);
    if (claim && Number(claim[2]) < now - CLAIM_TTL_MS && (entry.mtimeMs ?? 0) < now - CLAIM_TTL_MS) add(`${claim[1]} claims`, entry);
  }
  return out;
}

/** The encoded execution id of an execution's `of:` entries (as its kept call and ended marker are keyed). */
const link0 = (links: Entry[]): string => links[0].name.split(':')[3];
