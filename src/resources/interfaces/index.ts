import { join } from 'node:path';
import type { WeirBus } from '../../events.js';
import { WeirError } from '../../errors.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { newId, newToken } from '../../util/ids.js';
import { buildInterface } from './build.js';
import { packFiles, readSources, sizeOf, unpackFiles } from './files.js';
import { findInterfaceFolder, readManifest, type InterfaceFolder } from './local.js';
import { INTERFACE_TYPES, type FileMap, type InterfaceLogEntry, type InterfaceRecord, type InterfaceType } from './types.js';
import type { Interfaces } from '../../types/interfaces.js';

export type { Interfaces } from '../../types/interfaces.js';

export * from './types.js';
export { buildInterface } from './build.js';
export { readSources, contentTypeOf, MANIFEST_FILE } from './files.js';
export { findInterfaceFolder, readManifest, type InterfaceFolder } from './local.js';
export { scaffoldInterface } from './boilerplate.js';

export interface InterfacesOptions {
  storage: Storages;
  bus: WeirBus;
}

/** Interface names are folder names and URL segments (`/i/<name>/`). */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
/** Log entries kept per interface (older ones are pruned on deploy and on read). */
const LOG_KEEP = 1000;

type Packed = ReturnType<typeof packFiles>;

/**
 * The interface manager: records, deployed builds, source snapshots and logs in the `cloud` mount
 * (`interfaces:records:<id>`, `interfaces:builds:<id>`, `interfaces:sources:<id>`, `interfaces:logs:<id>:<n>`).
 * @example
 * const shop = await weir.interfaces.create({ name: 'shop', dir: '/src/shop' })
 * await weir.interfaces.deploy({ dir: '/src/shop', manifest: shop })
 * const page = (await weir.interfaces.served('shop'))?.files.get('index.html')
 */
export function createInterfaces({ storage, bus }: InterfacesOptions): Interfaces {
  const store: KeyValueStorage = storage.view('cloud', 'interfaces');
  const nameKey = (name: string) => `names:${encodeURIComponent(name)}`;
  const now = () => new Date().toISOString();
  // Unpacked builds by id, kept while their version is current (a host serves many requests per deploy).
  const cache = new Map<string, { version: number; files: FileMap }>();

  async function find(ref: string): Promise<InterfaceRecord | null> {
    if (!ref) return null;
    const byId = /^[\w-]+$/.test(ref) ? await store.getItem<InterfaceRecord>(`records:${ref}`) : null;
    if (byId) return byId;
    // No interface has a name outside NAME; such a ref (`..`, `.`) would not even be a valid storage key.
    if (!NAME.test(ref)) return null;
    const named = await store.getItem<{ id: string }>(nameKey(ref));
    return named ? store.getItem<InterfaceRecord>(`records:${named.id}`) : null;
  }

  async function get(ref: string): Promise<InterfaceRecord> {
    const found = await find(ref);
    if (!found) throw new WeirError('NOT_FOUND', `interface "${ref}" not found`, { hints: ['run `weir interface list` to see interfaces'] });
    return found;
  }

  async function save(record: InterfaceRecord): Promise<InterfaceRecord> {
    await store.setItem(`records:${record.id}`, record);
    await store.setItem(nameKey(record.name), { id: record.id });
    return record;
  }

  async function insert(fields: { id: string; name: string; type?: string; description?: string; dir?: string }) {
    if (!/^[\w-]{1,64}$/.test(fields.id)) throw new WeirError('INVALID_CONFIG', `invalid interface id "${fields.id}"`);
    if (!NAME.test(fields.name)) {
      throw new WeirError('INVALID_INPUT', `invalid interface name "${fields.name}": use letters, digits, ".", "_" and "-" (max 64)`);
    }
    const type = (fields.type ?? 'external') as InterfaceType;
    if (!INTERFACE_TYPES.includes(type)) throw new WeirError('INVALID_INPUT', `--type must be "external" or "internal", got "${fields.type}"`);
    if (await find(fields.name)) throw new WeirError('EXISTS', `an interface named "${fields.name}" already exists`, { hints: ['interface names are unique'] });
    const time = now();
    const record: InterfaceRecord = {
      id: fields.id,
      name: fields.name,
      type,
      ...(fields.description ? { description: fields.description } : {}),
      ...(fields.dir ? { dir: fields.dir } : {}),
      createdAt: time,
      updatedAt: time,
      deployed: null,
    };
    await save(record);
    bus.emit('interface:created', { id: record.id, name: record.name });
    return record;
  }

  async function appendLog(id: string, kind: InterfaceLogEntry['kind'], message: string): Promise<void> {
    const stamp = `${String(Date.now()).padStart(15, '0')}-${newToken(4)}`;
    await store.setItem(`logs:${id}:${stamp}`, { time: now(), kind, message } satisfies InterfaceLogEntry);
  }

  /** Log keys of an interface, oldest first; prunes beyond the retention. */
  async function logKeys(id: string): Promise<string[]> {
    const keys = (await store.getKeys(`logs:${id}`)).sort();
    const drop = keys.length - LOG_KEEP;
    if (drop > 0) await Promise.all(keys.slice(0, drop).map((k) => store.removeItem(k)));
    return keys.slice(Math.max(0, drop));
  }

  const api = {
    find,
    get,

    /** Every interface, by name. */
    async list(): Promise<InterfaceRecord[]> {
      const keys = await store.getKeys('records');
      const items = await Promise.all(keys.map((k) => store.getItem<InterfaceRecord>(k)));
      return items.filter((x): x is InterfaceRecord => !!x && typeof x === 'object').sort((a, b) => a.name.localeCompare(b.name));
    },

    /** Records a new interface (names are unique); `dir` is its source folder. */
    create: (fields: { name: string; type?: string; description?: string; dir?: string }) => insert({ ...fields, id: newId('if') }),

    /** Removes the record, its build, sources and logs (the source folder stays). */
    async remove(ref: string) {
      const record = await get(ref);
      await Promise.all([store.clear(`logs:${record.id}`), ...[`builds:${record.id}`, `sources:${record.id}`, nameKey(record.name)].map((k) => store.removeItem(k))]);
      await store.removeItem(`records:${record.id}`);
      cache.delete(record.id);
      bus.emit('interface:deleted', { id: record.id });
      return { id: record.id, name: record.name, deleted: true };
    },

    /**
     * The interface folder a command acts on: with `ref`, `cwd` itself, `./<name>` under it, or the folder it
     * was created in; without, the folder `cwd` is in (it or a parent holds `weir.interface.json`).
     */
    async folder(ref: string | undefined, cwd: string): Promise<InterfaceFolder> {
      if (!ref) {
        const here = await findInterfaceFolder(cwd);
        if (here) return here;
        throw new WeirError('NOT_FOUND', 'not in an interface folder (no weir.interface.json here or above)', {
          hints: ['run the command inside the folder made by `weir interface init`, or name the interface'],
        });
      }
      const record = await get(ref);
      for (const dir of [cwd, join(cwd, record.name), record.dir]) {
        if (!dir) continue;
        const manifest = await readManifest(dir).catch(() => null);
        if (manifest?.id === record.id) return { dir, manifest };
      }
      throw new WeirError('NOT_FOUND', `the source folder of interface "${record.name}" was not found`, {
        hints: [`run the command in the folder holding ./${record.name}/ (made by \`weir interface init\`)`],
      });
    },

    /** Builds a folder and stores the build and its sources as the new deployed version. */
    async deploy(folder: InterfaceFolder) {
      const { dir, manifest } = folder;
      let record = await find(manifest.id);
      // A folder made against another home is recorded here on its first deploy.
      record ??= await insert({ ...manifest, dir });
      const [files, sources] = await Promise.all([buildInterface(dir), readSources(dir)]);
      const version = (record.deployed?.version ?? 0) + 1;
      const at = now();
      await store.setItem(`sources:${record.id}`, { version, files: packFiles(sources) });
      await store.setItem(`builds:${record.id}`, { version, files: packFiles(files) });
      const bytes = sizeOf(files);
      record = await save({ ...record, type: manifest.type, dir, updatedAt: at, deployed: { version, at, files: files.size, bytes } });
      await appendLog(record.id, 'deploy', `deployed version ${version}: ${files.size} files, ${bytes} bytes`);
      await logKeys(record.id);
      bus.emit('interface:deployed', { id: record.id, version });
      return { id: record.id, name: record.name, type: record.type, version, files: [...files.keys()], bytes, path: `/i/${record.name}/` };
    },

    /** The deployed build of an interface (by id or name), or null before the first deploy. */
    async served(ref: string): Promise<{ record: InterfaceRecord; files: FileMap } | null> {
      const record = await find(ref);
      if (!record?.deployed) return null;
      const hit = cache.get(record.id);
      if (hit?.version === record.deployed.version) return { record, files: hit.files };
      const build = await store.getItem<{ version: number; files: Packed }>(`builds:${record.id}`);
      if (!build) return null;
      const files = unpackFiles(build.files);
      cache.set(record.id, { version: build.version, files });
      return { record, files };
    },

    /** The sources stored with the newest deploy, or null. */
    async deployedSources(id: string): Promise<FileMap | null> {
      const stored = await store.getItem<{ files: Packed }>(`sources:${id}`);
      return stored ? unpackFiles(stored.files) : null;
    },

    /** Appends a line to an interface's log (deploys and requests). */
    log: appendLog,

    /** The newest `limit` log lines of an interface, oldest first. */
    async logs(ref: string, limit = 50): Promise<InterfaceLogEntry[]> {
      const record = await get(ref);
      const keys = (await logKeys(record.id)).slice(-Math.max(0, limit));
      const entries = await Promise.all(keys.map((k) => store.getItem<InterfaceLogEntry>(k)));
      return entries.filter((e): e is InterfaceLogEntry => !!e);
    },

    /**
     * The host's access token for internal interfaces (created on first use, kept in the cloud mount so every
     * host of the organization agrees). Requests send it as `Authorization: Bearer <token>` or `?token=`.
     */
    async accessToken(): Promise<string> {
      const stored = await store.getItem<{ token: string }>('access:token');
      if (stored?.token) return stored.token;
      const token = newToken(32);
      await store.setItem('access:token', { token });
      // Two hosts creating it at once: both answer with the one that was stored last.
      return (await store.getItem<{ token: string }>('access:token'))?.token ?? token;
    },
  };
  return api;
}
