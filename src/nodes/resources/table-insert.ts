import { defineNode, type Problem } from '../define.js';
import { objectField } from '../fields.js';
import { derivedRowId } from '../side-effects.js';
import { service, tableField } from './common.js';

/**
 * `{"table", "row": {...}}`; data = the row as stored. A row without a key gets one derived from the
 * execution and node, so the node run again after a crash finds its row instead of adding a second one.
 */
export const tableInsertNode = defineNode<{ table: string; row: Record<string, unknown> }>({
  type: 'table_insert',
  docs: {
    summary: 'Inserts a row into a table; run again after a crash, it finds its row instead of adding a second one',
    output: 'The row as stored',
    example: { table: 'user.orders', row: { customer: '{{ $input.customer }}', total: 42 } },
  },
  config: {
    type: 'object',
    properties: {
      table: { type: 'string', description: 'The table: user.<name>, system.<name> or a table id' },
      row: { type: 'object', description: 'The row to insert, column by column' },
    },
    required: ['table', 'row'],
    additionalProperties: false,
  },
  validate(config) {
    const problems: Problem[] = [];
    tableField(config, problems);
    objectField(config, 'row', problems, true);
    return problems;
  },
  run: async (ctx) => service(ctx, 'tables').insert(ctx.config.table, ctx.config.row, { keyIfAbsent: derivedRowId(ctx) }),
});
