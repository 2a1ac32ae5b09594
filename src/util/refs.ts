import { WeirError } from '../errors.js';
import { didYouMean } from './nearest.js';

/**
 * Finds a record by id, else by name (ids win; a name shared by several records is ambiguous); an unknown
 * ref is NOT_FOUND naming the nearest names and ids.
 * @example
 * const ns = findByRef(await listNamespaces(), 'sessions', 'KV namespace', 'weir data kv list')
 */
export function findByRef<T extends { id: string; name: string }>(items: T[], ref: string, kind: string, listCommand: string): T {
  const byId = items.find((i) => i.id === ref);
  if (byId) return byId;
  const named = items.filter((i) => i.name === ref);
  if (named.length === 1) return named[0];
  if (named.length > 1) {
    throw new WeirError('CONFLICT', `${kind} name "${ref}" is ambiguous: ${named.map((i) => i.id).join(', ')}`, { hints: ['use the id instead'] });
  }
  throw new WeirError('NOT_FOUND', `${kind} "${ref}" not found${didYouMean(ref, items.flatMap((i) => [i.name, i.id]))}`, { hints: [`run \`${listCommand}\` to see ${kind}s`] });
}

/**
 * Maps over items with at most `limit` calls in flight (reading thousands of files at once exhausts file
 * descriptors).
 * @example
 * const records = await mapLimit(keys, 32, (k) => storage.getItem(k))
 */
export async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

/** Every object record under a storage view (skipping anything that is not an object). */
export async function readRecords<T>(storage: { getKeys(base?: string): Promise<string[]>; getItem(key: string): Promise<unknown> }, base?: string): Promise<T[]> {
  const keys = await storage.getKeys(base);
  const items = await mapLimit(keys, 32, (k) => storage.getItem(k));
  return items.filter((x) => x !== null && typeof x === 'object') as T[];
}
