import { newToken } from '../util/ids.js';
import type { TokenRecord, WaitStore } from './store.js';

/** Options of {@link createResumeTokens}. */
export interface ResumeTokensOptions {
  store: Pick<WaitStore, 'putToken' | 'token'>;
  /** The public base URL (no trailing slash); read per token, so it should be cheap. */
  base(): string;
  now?: () => number;
}

/**
 * Resume tokens: `url()` issues one (an approval URL's too) (192 random bits) for an execution and stores `token -> execution`;
 * until the write lands, lookups in this process wait for it, and `stored(executionId)` lets the run end only
 * once its tokens are stored, so a URL handed out is never unknown to the host that answers it.
 * @example
 * const tokens = createResumeTokens({ store, base: () => 'https://hooks.example.com' })
 * tokens.url({ id: 'exec_1', workflowId: 'wf_1' }) // 'https://hooks.example.com/resume/Xk2...'
 */
export function createResumeTokens(options: ResumeTokensOptions) {
  const now = options.now ?? Date.now;
  const writing = new Map<string, Promise<void>>();
  const byExecution = new Map<string, Set<Promise<void>>>();

  return {
    /** Issues a URL; `kind: 'approval'` makes one that decides the execution's approval wait (`$execution.approvalUrl`). */
    url(execution: { id: string; workflowId: string }, kind?: 'approval'): string {
      const token = newToken(24);
      const record: TokenRecord = { executionId: execution.id, workflowId: execution.workflowId, issuedAt: now(), ...(kind ? { kind } : {}) };
      const write = options.store.putToken(token, record);
      const settled = write.catch(() => {});
      writing.set(token, settled);
      let set = byExecution.get(execution.id);
      if (!set) byExecution.set(execution.id, (set = new Set()));
      set.add(write);
      void settled.finally(() => {
        writing.delete(token);
        set!.delete(write);
        if (!set!.size && byExecution.get(execution.id) === set) byExecution.delete(execution.id);
      });
      return `${options.base()}/resume/${token}`;
    },
    /** Resolves once the tokens issued for an execution are stored (rejects when one could not be). */
    async stored(executionId: string): Promise<void> {
      const set = byExecution.get(executionId);
      if (set) await Promise.all(set);
    },
    async lookup(token: string): Promise<TokenRecord | null> {
      await writing.get(token);
      return options.store.token(token);
    },
    markUsed: (token: string, record: TokenRecord) => options.store.putToken(token, { ...record, used: true }),
  };
}

export type ResumeTokens = ReturnType<typeof createResumeTokens>;
