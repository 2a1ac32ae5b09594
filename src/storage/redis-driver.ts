import type { Redis, RedisOptions } from 'ioredis';
import { defineDriver } from 'unstorage';

export interface RedisDriverOptions extends RedisOptions {
  url?: string;
  /** Prefix of every key of the mount (`<base>:<key>`). */
  base?: string;
}

/** The byte that sorts after any UTF-8 text: the upper bound of a prefix range. */
const TOP = Buffer.from([0xff]);

/**
 * The `redis` storage driver: unstorage's key layout (`<base>:<key>` -> the value string, readable by its
 * own redis driver) plus a sorted-set index of the mount's keys (`<base>:\0keys`, every score 0), written
 * in the same MULTI as the value. Listing a prefix is then a lexicographic range of that index, O(log n + m),
 * where unstorage's driver SCANs the whole Redis keyspace on every listing (secrets are listed on every
 * execution: with a hundred thousand execution records that is a hundred round trips each time).
 * ioredis loads on first use.
 * @example
 * const storage = createStorage({ driver: redisDriver({ url: 'redis://127.0.0.1:6379', base: 'acme' }) })
 */
export const redisDriver = defineDriver((opts: RedisDriverOptions = {}) => {
  const { url, base: rawBase, ...redisOptions } = opts;
  const base = (rawBase ?? '').replace(/:$/, '');
  const full = (key: string) => (base ? `${base}:${key}` : key);
  const index = full('\u0000keys');
  let client: Promise<Redis> | undefined;
  const redis = () =>
    (client ??= import('ioredis').then(({ Redis }) => {
      const options = { enableAutoPipelining: true, ...redisOptions };
      return url ? new Redis(url, options) : new Redis(options);
    }));

  const keysUnder = async (prefix: string): Promise<string[]> =>
    (await redis()).zrangebylex(index, `[${prefix}`, Buffer.concat([Buffer.from(`[${prefix}`), TOP]));

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
      const ttl = (tOptions as { ttl?: number } | undefined)?.ttl;
      const multi = (await redis()).multi();
      if (ttl) multi.set(full(key), value, 'EX', ttl);
      else multi.set(full(key), value);
      await multi.zadd(index, 0, key).exec();
    },
    async removeItem(key) {
      await (await redis()).multi().unlink(full(key)).zrem(index, key).exec();
    },
    getKeys: (prefix) => keysUnder(prefix ?? ''),
    async clear(prefix) {
      const keys = await keysUnder(prefix ?? '');
      const r = await redis();
      for (let i = 0; i < keys.length; i += 1000) {
        const chunk = keys.slice(i, i + 1000);
        await r.multi().unlink(chunk.map(full)).zrem(index, chunk).exec();
      }
    },
    async dispose() {
      const c = client;
      client = undefined;
      if (c) await (await c).quit().catch(() => {});
    },
  };
});
