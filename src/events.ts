import mitt, { type Emitter } from 'mitt';
import type { NodeLogLevel } from './flow/types.js';

/**
 * Every event weir emits, by name. Hosts and tests subscribe with `weir.bus.on(name, handler)`.
 * Add new events here so that handlers stay typed.
 */
export interface WeirEvents {
  'workflow:created': { id: string; name: string };
  'workflow:saved': { id: string };
  'workflow:published': { id: string; version: number };
  'workflow:deleted': { id: string; unpublished: boolean };
  'workflow:synced': { ids: string[] };
  'interface:created': { id: string; name: string };
  'interface:deployed': { id: string; version: number };
  'interface:deleted': { id: string };
  /** A flow an incoming SMS or finished call should have run could not be started. */
  'telephony:error': { executionId: string; workflowId: string; trigger: 'sms' | 'call'; error: unknown };
  /** Executions (secret values masked): start, end, each node's start and end, and node log lines. */
  'execution:start': { executionId: string; workflowId: string; workflowName: string; trigger: string; startedAt: string };
  'execution:end': { executionId: string; workflowId: string; workflowName: string; trigger: string; status: string; startedAt: string; finishedAt: string | null; error?: { code: string; message: string; status?: number; node?: string } };
  'node:start': { executionId: string; workflowId: string; nodeId: string; type: string; startedAt: string };
  'node:end': { executionId: string; workflowId: string; nodeId: string; type: string; status: string; startedAt: string | null; finishedAt: string | null; error?: { code: string; message: string } };
  /** A node reported the tokens one language-model call took (`ctx.recordUsage`; emitted only while something listens, e.g. the metrics). */
  'llm:usage': { executionId: string; workflowId: string; workflowName: string; nodeId: string; model: string; promptTokens: number; completionTokens: number; totalTokens: number };
  'execution:log': { executionId: string; workflowId: string; nodeId: string; level: NodeLogLevel; message: string; data?: unknown };
  /** A flow's webhook capture session changed (listening, captured, or back to idle). */
  'webhook:capture': { id: string; state: 'listening' | 'captured' | 'idle' };
  /** A durable webhook delivery could not run (its flow was unpublished meanwhile, or it failed to start). */
  'webhook:error': { executionId: string; workflowId: string; error: unknown };
  /** `/trigger/<token>` answered (emitted only while something listens, e.g. the metrics): status and time taken. */
  'webhook:answer': { status: number; seconds: number };
  /**
   * A known flow's webhook token answered 404 because no webhook trigger is published (told once per flow a
   * host; `draftTrigger` undefined: no local draft). The caller's answer is the 404 of an unknown token.
   */
  'webhook:not-live': { workflowId: string; workflowName: string; publishedTrigger: string | null; draftTrigger?: string | null };
  /** An unfinished execution of a dead process could not be resumed (no ids: the scan for them failed). */
  'execution:resume-error': { executionId?: string; workflowId?: string; error: unknown };
  /** Schedules: a run started (`late`: ms after its due time), a run skipped (overlap), a flow that cannot be scheduled or run. */
  'schedule:fired': { workflowId: string; at: string; late: number };
  'schedule:skipped': { workflowId: string; at: string; reason: string };
  'schedule:error': { workflowId: string; error: unknown };
  /** Waits: one ended (`late`: ms after its due time), one could not be woken, a host loaded its wake index. */
  'wait:woken': { executionId: string; nodeId: string; late: number };
  'wait:error': { executionId?: string; nodeId?: string; error: unknown };
  'waits:loaded': { count: number; ms: number };
  /** The error flow of a failed execution (`settings.errorFlow`) could not run: which, and why. */
  'error-flow:failed': { executionId: string; workflowId: string; workflowName: string; errorFlow: string; problem: string };
  /** A debounced burst could not be stored, loaded or run (it is tried again later). */
  'debounce:error': { executionId?: string; workflowId?: string; error: unknown };
  /** A Redis connection of the cluster failed (told once until it is back; ioredis reconnects on its own). */
  'cluster:error': { connection: 'command' | 'subscriber'; error: unknown };
  [event: string]: unknown;
  [event: symbol]: unknown;
}

export type WeirBus = Emitter<WeirEvents>;

/** A fresh event bus; each weir instance owns one. */
export const createBus = (): WeirBus => mitt<WeirEvents>();
