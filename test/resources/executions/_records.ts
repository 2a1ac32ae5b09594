import type { ExecutionRecord } from '../../../src/index.js';
import { newExecutionId } from '../../../src/resources/executions/ids.js';

/**
 * An execution record as a run stores it, for tests that write records straight into `weir.executions`: an
 * `error` one carries its error, a finished one ends 5 ms after it started, `running`/`waiting` ones have not.
 */
export function executionRecord(workflowId: string, startedAt: number, status: ExecutionRecord['status']): ExecutionRecord {
  const ended = status !== 'running' && status !== 'waiting' && status !== 'queued';
  return {
    id: newExecutionId(startedAt),
    workflowId,
    workflowName: workflowId,
    version: 1,
    status,
    trigger: 'manual',
    input: {},
    nodes: {},
    result: null,
    ...(status === 'error' ? { error: { code: 'EXECUTION_FAILED', message: 'boom' } } : {}),
    startedAt: new Date(startedAt).toISOString(),
    finishedAt: ended ? new Date(startedAt + 5).toISOString() : null,
  };
}
