import type { GroupSpec } from '../types.js';
import { kv } from './data-kv.js';
import { tables } from './data-tables.js';

/** `weir data`: SQL tables and KV namespaces. */
export const data: GroupSpec = {
  name: 'data',
  summary: 'SQL tables and KV namespaces',
  commands: [tables, kv],
};
