import { WeirError } from '../../errors.js';
import { checkObjectKey } from '../../storage/keys.js';
import type { NodeServices } from '../../types/node-services.js';
import type { NodeContext, Problem } from '../define.js';
import { isTemplate } from '../fields.js';

/**
 * A service of the instance running the flow (`ctx.services`), or a clear error when the executor was built
 * without it.
 * @example
 * const kv = service(ctx, 'kv')
 */
export function service<K extends keyof NodeServices>(ctx: NodeContext<any>, name: K): NonNullable<NodeServices[K]> {
  const s = ctx.services?.[name];
  if (!s) throw new WeirError('UNAVAILABLE', `${ctx.node.type}: this weir instance has no ${name} manager`);
  return s;
}

/** The config keys every KV node has: which namespace, and which key in it. */
export const kvKeyProperties = {
  namespace: { type: 'string', description: 'The key-value namespace, by name or id' },
  key: { type: 'string', description: 'The key' },
} as const;

/** Save-time check of a required string field (a template counts: its value is known only at run time). */
export function stringField(config: Record<string, unknown>, key: string, problems: Problem[]): boolean {
  const v = config[key];
  if (typeof v !== 'string' || v.trim() === '') {
    problems.push({ path: key, message: `"${key}" is required (a string)` });
    return false;
  }
  return !isTemplate(v);
}

/** A table reference must be a user/system table name or a table id. */
export function tableField(config: Record<string, unknown>, problems: Problem[]): void {
  if (stringField(config, 'table', problems) && !/^(user\.|system\.|tbl_|sys_)/.test(config.table as string)) {
    problems.push({ path: 'table', message: 'table names start with "user." (or give a table id)' });
  }
}

/** A literal storage key must already be valid at save time (path-like, no `..` segments, no leading `/`, no NUL). */
export function storageKeyField(config: Record<string, unknown>, problems: Problem[]): void {
  if (!stringField(config, 'key', problems)) return;
  try {
    checkObjectKey(config.key as string);
  } catch (err) {
    problems.push({ path: 'key', message: (err as Error).message });
  }
}

/** Text of a value to store: strings as they are, anything else as JSON. */
export const asText = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v ?? null));
