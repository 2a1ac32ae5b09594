import { resolve } from 'node:path';
import type { WeirConfig } from '../config.js';
import { parseBatch } from '../resources/executions/batch-keys.js';
import { RETENTION_DEFAULTS } from '../resources/executions/retention.js';
import type { MountName, Storages } from '../storage/index.js';
import { filesUnder, type Entry } from './files.js';
import { cloudKind, homeKind, localKind } from './kinds.js';
import { retentionRemoves, type Removal } from './retention.js';

/** One kind of record a home holds: how many, their bytes (null: not known, a Redis mount), what retention removes. */
export interface KindReport {
  kind: string;
  /** Where it is kept: a mount (`cloud`, `local`) or `home` (files beside the mounts). */
  place: MountName | 'home';
  count: number;
  bytes: number | null;
  /** Execution records in the batches (`execution batches` only). */
  records?: number;
  removable: Removal;
}

/** What `weir doctor` reports. */
export interface HomeReport {
  home: string;
  /** The retention in force (`executions` in weir.config.json, else the defaults). */
  retention: { retentionDays: number; maxPerWorkflow: number };
  kinds: KindReport[];
  total: { count: number; bytes: number | null; removable: { count: number; bytes: number | null } };
}

const sum = (a: number | null, b: number | null) => (a === null || b === null ? null : a + b);

/** The keys of a mount with their sizes: files of weir's fs driver, else the driver's keys (sizes unknown). */
async function mountEntries(storage: Storages, mount: MountName): Promise<Entry[]> {
  const dir = storage.dir(mount);
  if (dir) return filesUnder(dir, dir, ':');
  return (await storage[mount].getKeys()).map((name) => ({ name, bytes: null }));
}

/**
 * What a home holds by kind (count and bytes) and what retention removes now: the account `weir doctor`
 * prints. Reads only; works on fs mounts (sizes from the files) and on others such as Redis (counts from
 * the keys, sizes unknown). Files beside the mounts (journal, claims, tables file, object files) are counted
 * from the home folder.
 * @example
 * const report = await examineHome({ home, storage: weir.storage, config: weir.config })
 * report.kinds.find((k) => k.kind === 'wait tokens') // { kind: 'wait tokens', place: 'cloud', count: 3, bytes: 330, removable: { count: 1, bytes: 110 } }
 */
export async function examineHome({ home, storage, config, now = Date.now() }: { home: string; storage: Storages; config: WeirConfig; now?: number }): Promise<HomeReport> {
  const [cloud, local] = await Promise.all([mountEntries(storage, 'cloud'), mountEntries(storage, 'local')]);
  const mountDirs = new Set((['cloud', 'local'] as const).map((m) => storage.dir(m)).filter((d): d is string => !!d).map((d) => resolve(d)));
  const homeFiles = await filesUnder(resolve(home), resolve(home), '/', mountDirs);
  const limits = {
    retentionDays: config.executions?.retentionDays ?? RETENTION_DEFAULTS.retentionDays,
    maxPerWorkflow: config.executions?.maxPerWorkflow ?? RETENTION_DEFAULTS.maxPerWorkflow,
  };
  const removes = await retentionRemoves({ cloud: storage.cloud, cloudEntries: cloud, homeEntries: homeFiles, limits, now });

  const kinds = new Map<string, KindReport & { open?: Set<string> }>();
  const count = (place: KindReport['place'], kind: string, entry: Entry) => {
    const id = `${place} ${kind}`;
    const k = kinds.get(id) ?? kinds.set(id, { kind, place, count: 0, bytes: 0, removable: { count: 0, bytes: 0 } }).get(id)!;
    // An open execution may be kept in two copies (`@2`): counted once.
    if (kind === 'open executions') (k.open ??= new Set()).add(entry.name.replace(/@2$/, ''));
    else k.count++;
    k.bytes = sum(k.bytes, entry.bytes);
    if (kind === 'execution batches') k.records = (k.records ?? 0) + (parseBatch(entry.name)?.count ?? 0);
  };
  for (const e of cloud) count('cloud', cloudKind(e.name), e);
  for (const e of local) count('local', localKind(e.name), e);
  for (const e of homeFiles) count('home', homeKind(e.name), e);
  for (const k of kinds.values()) {
    if (k.open) k.count = k.open.size;
    delete k.open;
    const removable = removes.get(k.kind);
    // Retention removes records of the cloud mount, and among the home's files only claims.
    const prunable = k.kind.endsWith(' claims') ? k.place === 'home' : k.place === 'cloud';
    if (removable && prunable) k.removable = removable;
  }
  const list = [...kinds.values()].sort((a, b) => (a.place === b.place ? a.kind.localeCompare(b.kind) : a.place.localeCompare(b.place)));
  const total = list.reduce(
    (t, k) => ({ count: t.count + k.count, bytes: sum(t.bytes, k.bytes), removable: { count: t.removable.count + k.removable.count, bytes: sum(t.removable.bytes, k.removable.bytes) } }),
    { count: 0, bytes: 0 as number | null, removable: { count: 0, bytes: 0 as number | null } },
  );
  return { home: resolve(home), retention: limits, kinds: list, total };
}
