import type { Redis, RedisOptions } from 'ioredis';
import { defineDriver } from 'unstorage';
import { WeirError } from '../errors.js';
import { loadOptional } from '../util/optional.js';

export interface RedisDriverOptions extends RedisOptions {
  url?: string;
  /** Prefix of every key of the mount (`<base>:<key>`). */
  base?: string;
  /** Seconds every item lives unless its `setItem` names its own `ttl` (unstorage's redis option). */
  ttl?: number;
  /** Open the connection now rather than on first use (unstorage's redis option). */
  preConnect?: boolean;
  /** Refused: see the driver's description. */
  cluster?: unknown;
  clusterOptions?: unknown;
  /** unstorage's SCAN batch size; listings here read the index and never SCAN, so it has no use. */
  scanCount?: number;
}

/** The byte that sorts after any UTF-8 text: the upper bound of a prefix range. */
const TOP = Buffer.from([0xff]);
/** Expired entries dropped from the index per listing, so one listing never blocks Redis for long. */
const PURGE_MAX = 1000;

/**
 * Lists the index entries in a lexicographic range, first dropping the entries of keys Redis has expired:
 * the keys written with a TTL are also in a second sorted set scored by their expiry time, and those due
 * whose value is really gone leave both sets (a key written again since keeps its entry).
 * KEYS: index, expiry set. ARGV: now (ms), key prefix of values, range start, range end.
 */
const LIST_SCRIPT = `
local due = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[1], 'LIMIT', 0, ${PURGE_MAX})
for _, key in ipairs(due) do
  if redis.call('EXISTS', ARGV[2] .. key) == 0 then
    redis.call('ZREM', KEYS[1], key)
    redis.call('ZREM', KEYS[2], key)
  end
end
return redis.call('ZRANGEBYLEX', KEYS[1], ARGV[3], ARGV[4])`;

/**
 * Sets a value only where its key is absent, and indexes the key when it does (one step, so no other writer
 * comes between). KEYS: the value's key, index. ARGV: value, key as indexed. Returns 1 when it set the value.
 */
const CREATE_SCRIPT = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
  redis.call('ZADD', KEYS[2], 0, ARGV[2])
  return 1
end
return 0`;

/**
 * ioredis, an optional peer package: opening a Redis mount loads it first, so a missing install shows at startup.
 * @example
 * const { Redis } = await loadIoredis()
 */
export const loadIoredis = () => loadOptional('ioredis', 'Redis storage (storage driver "redis")', () => import('ioredis'));

type Client = Redis & {
  weirList(index: string, expiries: string, now: number, prefix: string, from: Buffer, to: Buffer): Promise<string[]>;
  weirCreate(key: string, index: string, value: string, indexed: string): Promise<number>;
};

/**
 * The `redis` storage driver: unstorage's key layout (`<base>:<key>` -> the value string, readable by its
 * own redis driver) plus a sorted-set index of the mount's keys (`<base>:\0keys`, every score 0), written
 * in the same MULTI as the value. Listing a prefix is then a lexicographic range of that index, O(log n + m),
 * where unstorage's driver SCANs the whole Redis keyspace on every listing (secrets are listed on every
 * execution: with a hundred thousand execution records that is a hundred round trips each time). Keys
 * written with a TTL are also kept in `<base>:\0expiries`, so listings drop them once Redis expires them.
 * Redis Cluster (`cluster`) is refused: a MULTI must keep every key in one hash slot, and the index holds
 * keys from all of them. ioredis loads on first use.
 * @example
 * const storage = createStorage({ driver: redisDriver({ url: 'redis://127.0.0.1:6379', base: 'acme' }) })
 */
export const redisDriver = defineDriver((opts: RedisDriverOptions = {}) => {
  // unstorage's own options are taken out here; only ioredis' options reach ioredis (`scanCount` is dropped).
  const { url, base: rawBase, ttl: defaultTtl, preConnect, cluster, clusterOptions, scanCount, ...redisOptions } = opts;
  if (cluster || clusterOptions) {
    throw new WeirError('INVALID_CONFIG', 'the redis storage driver does not run on Redis Cluster', {
      hints: ['point "url" at a single Redis (a primary, with replicas if needed)'],
    });
  }
  const base = (rawBase ?? '').replace(/:$/, '');
  const full = (key: string) => (base ? `${base}:${key}` : key);
  const index = full('\u0000keys');
  const expiries = full('\u0000expiries');
  let client: Promise<Client> | undefined;
  const redis = () =>
    (client ??= loadIoredis().then(({ Redis }) => {
      const options = { enableAutoPipelining: true, ...redisOptions };
      const r = url ? new Redis(url, options) : new Redis(options);
      r.defineCommand('weirList', { numberOfKeys: 2, lua: LIST_SCRIPT });
      r.defineCommand('weirCreate', { numberOfKeys: 2, lua: CREATE_SCRIPT });
      return r as Client;
    }));
  if (preConnect) void redis();

  const keysUnder = async (prefix: string): Promise<string[]> =>
    (await redis()).weirList(index, expiries, Date.now(), base ? `${base}:` : '', Buffer.from(`[${prefix}`), Buffer.concat([Buffer.from(`[${prefix}`), TOP]));

  return {
    name: 'weir-redis',
    options: opts,
    getInstance: redis,
    async hasItem(key) {
      return (await (await redis()).exists(full(key))) === 1;
    },
    async getItem(key) {
      return (await redis()).get(full(key));
    },
    async getItems(items) {
      if (!items.length) return [];
      const values = await (await redis()).mget(items.map((i) => full(i.key)));
      return items.map((i, n) => ({ key: i.key, value: values[n] ?? null }));
    },
    async setItem(key, value, tOptions) {
      const ttl = (tOptions as { ttl?: number } | undefined)?.ttl ?? defaultTtl;
      const multi = (await redis()).multi();
      // A plain SET also ends an earlier TTL, so the key leaves the expiry set.
      if (ttl) multi.set(full(key), value, 'EX', ttl).zadd(expiries, Date.now() + ttl * 1000, key);
      else multi.set(full(key), value).zrem(expiries, key);
      await multi.zadd(index, 0, key).exec();
    },
    /** Writes `value` only where `key` is absent (SET NX): true for exactly one writer (see `setItemIfAbsent`). */
    async setItemIfAbsent(key: string, value: string): Promise<boolean> {
      return (await (await redis()).weirCreate(full(key), index, value, key)) === 1;
    },
    async removeItem(key) {
      await (await redis()).multi().unlink(full(key)).zrem(index, key).zrem(expiries, key).exec();
    },
    getKeys: (prefix) => keysUnder(prefix ?? ''),
    async clear(prefix) {
      const keys = await keysUnder(prefix ?? '');
      const r = await redis();
      for (let i = 0; i < keys.length; i += 1000) {
        const chunk = keys.slice(i, i + 1000);
        await r.multi().unlink(chunk.map(full)).zrem(index, chunk).zrem(expiries, chunk).exec();
      }
    },
    async dispose() {
      const c = client;
      client = undefined;
      if (c) await (await c).quit().catch(() => {});
    },
  };
});
