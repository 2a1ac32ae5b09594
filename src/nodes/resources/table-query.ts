import { defineNode, type Problem } from '../define.js';
import { isTemplate } from '../fields.js';
import { service, stringField, tableField } from './common.js';

/**
 * `{"table", "sql", "params": [...]}`. Values go in `params` and are bound, never spliced: the SQL
 * text is not a template. data = the rows, or `{changes}` for a write without RETURNING. The statement stops at
 * the node's `timeoutMs` when that is shorter than `tables.timeoutMs`, and when the execution is cancelled.
 */
export const tableQueryNode = defineNode<{ table: string; sql: string; params?: unknown[] | Record<string, unknown>; timeoutMs?: number }>({
  type: 'table_query',
  docs: {
    summary: 'Runs one SQL statement on a table, values bound from params',
    output: 'The rows, or `{ changes }` for a write without RETURNING',
    example: { table: 'user.orders', sql: 'SELECT * FROM "user.orders" WHERE customer = ?', params: ['{{ $input.customer }}'] },
  },
  rawKeys: ['sql'],
  config: {
    type: 'object',
    properties: {
      table: { type: 'string', description: 'The table: user.<name>, system.<name> or a table id' },
      sql: { type: 'string', description: 'One SQL statement naming only that table, quoted; no {{ }} (values go in params)' },
      params: { type: ['array', 'object'], description: 'Values bound to the ? (an array) or :name (an object) placeholders, never spliced' },
      timeoutMs: { type: 'number', description: 'Time limit of one attempt in milliseconds; also stops the statement when shorter than tables.timeoutMs' },
    },
    required: ['table', 'sql'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    tableField(config, problems);
    stringField(config, 'sql', problems);
    if (isTemplate(config.sql)) problems.push({ path: 'sql', message: 'put values in "params" (bound as ? or :name); the SQL text takes no {{ }} expressions' });
    const p = config.params;
    if (p !== undefined && !isTemplate(p) && (p === null || typeof p !== 'object')) problems.push({ path: 'params', message: '"params" must be an array (for ?) or an object (for :name)' });
    return problems;
  },
  async run(ctx) {
    const { table, sql, params = [], timeoutMs } = ctx.config;
    const r = await service(ctx, 'tables').execute(table, sql, params, { timeoutMs, signal: ctx.signal });
    return r.reader ? r.rows : { changes: r.changes };
  },
});
