import type { ExecutionRecord } from '../../flow/types.js';

/**
 * The hint for an ended execution: the commands that run it again and that its state allows. `retry` only
 * for one that failed or was cancelled (with `--latest` when the config it ran is unknown, as for a job
 * cancelled in the queue), `rerun` for any (with `--draft` for a run of the local draft, which may never
 * have been published).
 * @example
 * runAgainHint({ id: 'exec_1', status: 'success', draft: true }) // 'run `weir workflows rerun exec_1 --draft` to run its input again'
 */
export function runAgainHint(r: Pick<ExecutionRecord, 'id' | 'status' | 'hash' | 'draft'>): string {
  const rerun = `\`weir workflows rerun ${r.id}${r.draft ? ' --draft' : ''}\` to run its input again`;
  if (r.status !== 'error' && r.status !== 'cancelled') return `run ${rerun}`;
  return `run \`weir workflows retry ${r.id}${r.hash ? '' : ' --latest'}\` to run it again from where it stopped, or ${rerun}`;
}
