import { join, resolve } from 'node:path';
import { createStorage, type Driver } from 'unstorage';
import type { MountConfig, WeirConfig } from '../config.js';
import { WeirError } from '../errors.js';
import { withPrefixClear } from './clear.js';
import { fsDriver } from './fs-driver.js';
import { memoryDriver } from './memory-driver.js';
import type { KeyValueStorage } from './types.js';
import { prefixView } from './view.js';

export type { KeyValueStorage } from './types.js';
export { setItemIfAbsent } from './create-once.js';

/** The two storage mounts: `local` (workflow drafts) and `cloud` (published workflows, organization resources). */
export type MountName = 'local' | 'cloud';

/**
 * Opened storage: the two mounts and a way to take a prefixed view of either. `clear(base)` on a mount or a
 * view removes every key under the base, whatever the driver (see `clearPrefix`).
 */
export interface Storages {
  local: KeyValueStorage;
  cloud: KeyValueStorage;
  /** A view of one mount under a prefix: managers see only their own keys (`view('cloud', 'kv')`). */
  view(mount: MountName, prefix: string): KeyValueStorage;
  /** The directory a mount is kept in by weir's own `fs` driver (so its changes can be seen on disk), else undefined. */
  dir(mount: MountName): string | undefined;
  /** Disposes drivers (closes Redis connections and the like). */
  dispose(): Promise<void>;
}

/** Options of {@link openStorage}: a home for the default `fs` mounts, or ready-made stores (e.g. unstorage's). */
export interface OpenStorageOptions {
  home?: string;
  config?: WeirConfig;
  local?: KeyValueStorage;
  cloud?: KeyValueStorage;
}

/**
 * Opens the `local` and `cloud` mounts: given instances first, else the driver named in `weir.config.json`,
 * else the atomic `fs` driver under `<home>/local` and `<home>/cloud`, or memory when there is no home.
 * @example
 * const storage = await openStorage({ home: '/srv/weir' })
 * await storage.view('cloud', 'kv').setItem('ns:key', { value: 'x' })
 */
export async function openStorage(options: OpenStorageOptions): Promise<Storages> {
  const dirs: Partial<Record<MountName, string>> = {};
  const open = async (mount: MountName): Promise<KeyValueStorage> => {
    const given = options[mount];
    if (given) return given;
    const spec = options.config?.storage?.[mount];
    // No home: weir's indexed memory driver (unstorage's lists every key of the mount on each listing).
    if (!spec && !options.home) return createStorage({ driver: memoryDriver() });
    const { driver, dir } = await loadDriver(spec ?? { driver: 'fs' }, options.home, mount);
    dirs[mount] = dir;
    return createStorage({ driver });
  };
  const [local, cloud] = (await Promise.all([open('local'), open('cloud')])).map(withPrefixClear);
  return {
    local,
    cloud,
    view: (mount, prefix) => prefixView(mount === 'local' ? local : cloud, prefix),
    dir: (mount) => dirs[mount],
    async dispose() {
      await Promise.all([local.dispose(), cloud.dispose()]);
    },
  };
}

/**
 * Loads a driver by name (with its directory for weir's `fs` driver); third-party drivers are imported only
 * when named, so startup stays cheap.
 */
async function loadDriver(spec: MountConfig, home: string | undefined, mount: MountName): Promise<{ driver: Driver; dir?: string }> {
  const { driver: name, ...options } = spec;
  if (name === 'fs') {
    // A relative base is relative to the home, so a home can be moved as a whole.
    const given = options.base as string | undefined;
    if (!given && !home) throw new WeirError('INVALID_CONFIG', `storage.${mount}: the fs driver needs a "base" or a home`);
    const dir = given ? resolve(home ?? '.', given) : join(home!, mount);
    return { driver: fsDriver({ base: dir }), dir };
  }
  if (name === 'memory') return { driver: memoryDriver() };
  // Redis: unstorage's key layout plus an index, so listings do not SCAN the whole keyspace (redis-driver.ts).
  if (name === 'redis') {
    const { loadIoredis, redisDriver } = await import('./redis-driver.js');
    await loadIoredis();
    return { driver: redisDriver(options) };
  }
  if (typeof name !== 'string' || !/^[a-z0-9-]+$/.test(name)) {
    throw new WeirError('INVALID_CONFIG', `storage.${mount}.driver must be an unstorage driver name, got ${JSON.stringify(name)}`);
  }
  let factory: (opts: unknown) => Driver;
  try {
    factory = (await import(`unstorage/drivers/${name}`)).default;
  } catch (err) {
    throw new WeirError('INVALID_CONFIG', `storage.${mount}: unknown storage driver "${name}"`, {
      hints: ['see https://unstorage.unjs.io/drivers for driver names'],
      cause: err,
    });
  }
  return { driver: factory(options) };
}
