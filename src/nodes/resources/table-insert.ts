import { defineNode, type Problem } from '../define.js';
import { objectField } from '../fields.js';
import { service, tableField } from './common.js';

/** `{"table", "row": {...}}`; data = the row as stored (with its generated id). */
export const tableInsertNode = defineNode<{ table: string; row: Record<string, unknown> }>({
  type: 'table_insert',
  validate(config) {
    const problems: Problem[] = [];
    tableField(config, problems);
    objectField(config, 'row', problems, true);
    return problems;
  },
  run: async (ctx) => service(ctx, 'tables').insert(ctx.config.table, ctx.config.row),
});
