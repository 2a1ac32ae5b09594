import type { SystemTable } from './types.js';

/** The part of the executions manager the system table reads. */
export interface ExecutionSource {
  list(options?: { limit?: number }): Promise<object[]>;
}

/** How many executions, newest first, `system.executions` holds. */
export const EXECUTIONS_ROWS = 10_000;

const json = (v: unknown) => (v === undefined || v === null ? null : JSON.stringify(v));

/**
 * `system.executions`: every workflow execution as a read-only table listed beside the user tables, loaded from
 * `executions.list()` when a query uses it.
 * @example
 * createTables({ ..., system: [executionsTable(executions)] })
 */
export function executionsTable(executions: ExecutionSource): SystemTable {
  return {
    meta: {
      id: 'sys_executions',
      name: 'system.executions',
      description: 'Workflow executions (read-only)',
      type: 'system',
      readOnly: true,
      auto: false,
      createdAt: '1970-01-01T00:00:00.000Z',
    },
    columns: [
      { name: 'id', type: 'TEXT', primaryKey: true, notNull: true },
      { name: 'workflowId', type: 'TEXT' },
      { name: 'workflowName', type: 'TEXT' },
      { name: 'version', type: 'INTEGER' },
      { name: 'status', type: 'TEXT' },
      { name: 'trigger', type: 'TEXT' },
      { name: 'startedAt', type: 'TEXT' },
      { name: 'finishedAt', type: 'TEXT' },
      { name: 'durationMs', type: 'INTEGER' },
      { name: 'error', type: 'TEXT' },
      { name: 'input', type: 'TEXT' },
      { name: 'result', type: 'TEXT' },
    ],
    async load() {
      const list = await executions.list({ limit: EXECUTIONS_ROWS });
      return list.map((e: any) => ({
        id: e.id,
        workflowId: e.workflowId ?? null,
        workflowName: e.workflowName ?? null,
        version: typeof e.version === 'number' ? e.version : null,
        status: e.status ?? null,
        trigger: e.trigger ?? null,
        startedAt: e.startedAt ?? null,
        finishedAt: e.finishedAt ?? null,
        durationMs: e.startedAt && e.finishedAt ? Date.parse(e.finishedAt) - Date.parse(e.startedAt) : null,
        error: json(e.error),
        input: json(e.input),
        result: json(e.result),
      }));
    },
  };
}
