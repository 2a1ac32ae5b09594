import type { WeirBus, WeirEvents } from '../events.js';
import { notLive } from '../triggers/webhook/not-live.js';
import type { WeirLogger } from './logger.js';

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
const msBetween = (from: string, to: string | null) => (to ? Date.parse(to) - Date.parse(from) : undefined);

/**
 * Logs what happens on a weir instance's bus: one line per execution end (errors at `error` with the flow,
 * the node and the message; cancellations at `warn`; successes and other ends at `info`, with the flow, the
 * execution id and the duration), trigger failures at `error`, a known flow's webhook answering 404 for want
 * of a published webhook trigger, skipped schedule fire times and error flows that could not run at `warn`,
 * node log lines at `debug`, starts at `trace`. Levels the logger leaves out are not listened to at all. Returns a function that stops.
 * @example
 * const stop = logBus(weir.bus, createLogger({ level: 'info', format: 'text', stream: process.stdout }))
 */
export function logBus(bus: WeirBus, logger: WeirLogger): () => void {
  // A line per success costs the webhook -> respond flow half again its server CPU per request (figures:
  // docs/performance.md): above `info` (`weir serve --quiet`) not even its fields are built.
  const info = logger.isLevelEnabled('info');
  const debug = logger.isLevelEnabled('debug');
  const stops: Array<() => void> = [];
  const on = <K extends keyof WeirEvents & string>(name: K, handler: (event: WeirEvents[K]) => void) => {
    bus.on(name, handler);
    stops.push(() => bus.off(name, handler));
  };
  // Fields are built only for a line that is written: most executions end in success, unlogged.
  const fieldsOf = (e: WeirEvents['execution:end']) => ({ flow: e.workflowName, flowId: e.workflowId, exec: e.executionId, trigger: e.trigger, ms: msBetween(e.startedAt, e.finishedAt) });
  on('execution:end', (e) => {
    if (e.status === 'error') logger.error({ ...fieldsOf(e), node: e.error?.node, code: e.error?.code, error: e.error?.message }, 'execution error');
    else if (e.status === 'cancelled') logger.warn({ ...fieldsOf(e), error: e.error?.message }, 'execution cancelled');
    else if (info) logger.info(fieldsOf(e), `execution ${e.status}`);
  });
  on('webhook:not-live', (e) => {
    const { reason, next } = notLive({ id: e.workflowId, name: e.workflowName, publishedTrigger: e.publishedTrigger, draftTrigger: e.draftTrigger });
    logger.warn({ flowId: e.workflowId }, `webhook for "${e.workflowName}" (${e.workflowId}) answered 404: ${reason}; ${next}`);
  });
  on('schedule:error', (e) => logger.error({ flowId: e.workflowId, error: messageOf(e.error) }, 'schedule error'));
  on('schedule:skipped', (e) => logger.warn({ flowId: e.workflowId, at: e.at, reason: e.reason }, 'schedule fire time skipped'));
  on('webhook:error', (e) => logger.error({ flowId: e.workflowId, exec: e.executionId, error: messageOf(e.error) }, 'webhook delivery error'));
  on('execution:resume-error', (e) => logger.error({ flowId: e.workflowId, exec: e.executionId, error: messageOf(e.error) }, 'execution could not resume'));
  on('wait:error', (e) => logger.error({ exec: e.executionId, node: e.nodeId, error: messageOf(e.error) }, 'wait error'));
  on('error-flow:failed', (e) => logger.warn({ flow: e.workflowName, flowId: e.workflowId, exec: e.executionId, errorFlow: e.errorFlow }, `error flow of "${e.workflowName}" did not run for ${e.executionId}: ${e.problem}`));
  on('debounce:error', (e) => logger.error({ exec: e.executionId, flow: e.workflowId, error: messageOf(e.error) }, 'debounce error'));
  on('cluster:error', (e) => logger.warn({ connection: e.connection, error: messageOf(e.error) }, 'redis connection failed; reconnecting'));
  on('telephony:error', (e) => logger.error({ flowId: e.workflowId, exec: e.executionId, trigger: e.trigger, error: messageOf(e.error) }, 'telephony error'));
  if (debug) {
    on('execution:log', (e) => logger.debug({ flowId: e.workflowId, exec: e.executionId, node: e.nodeId, logLevel: e.level, text: e.message }, 'node log'));
    on('schedule:fired', (e) => logger.debug({ flowId: e.workflowId, at: e.at, late: e.late }, 'schedule fired'));
    on('wait:woken', (e) => logger.debug({ exec: e.executionId, node: e.nodeId, late: e.late }, 'wait ended'));
  }
  if (logger.isLevelEnabled('trace')) {
    on('execution:start', (e) => logger.trace({ flow: e.workflowName, flowId: e.workflowId, exec: e.executionId, trigger: e.trigger }, 'execution start'));
  }
  return () => {
    for (const stop of stops) stop();
  };
}
