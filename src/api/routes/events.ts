import type { ExecutionRecord } from '../../flow/types.js';
import { RawAnswer, type ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import type { EventLog, LoggedEvent } from '../events/log.js';
import { openEventStream } from '../events/stream.js';
import { ref } from '../schemas/index.js';
import { executionRef, findFlow, workflowRef } from './shared.js';

/** Statuses after which an execution emits nothing more (a `waiting` one goes on later). */
const GOING = new Set(['queued', 'running', 'waiting']);
const isFinalEnd = (e: LoggedEvent) => e.name === 'execution:end' && !GOING.has((e.data as { status: string }).status);

const RESUMING =
  'Each event has an `id`. Reconnecting with `Last-Event-ID` sends every event after that one, none twice; when the id is older than what the host keeps (or from another host), a `snapshot` event comes first. A `: ping` comment is sent every 15 s.';

/**
 * Where a stream starts: after the client's `Last-Event-ID` when the log still holds every event since, else
 * after now (`snapshot`: the client is told the current state first).
 */
function startOf(log: EventLog, lastEventId: string | undefined): { from: number; snapshot: boolean } {
  const seen = log.seqOf(lastEventId);
  return seen !== null && log.holds(seen) ? { from: seen, snapshot: false } : { from: log.last(), snapshot: true };
}

/** `GET /executions/:id/events` and `GET /workflows/:id/events`: server-sent events from the host's event log. */
export const eventRoutes = ({ executions, workflows }: ApiDeps, log: EventLog): ApiRoute[] => [
  {
    method: 'GET',
    path: '/executions/:id/events',
    operationId: 'executionEvents',
    tag: 'events',
    summary: "Server-sent events of one execution: execution:start, node:start, node:end, execution:log, execution:end (secrets masked); the stream ends with the execution",
    description: `${RESUMING} A new stream (no Last-Event-ID) starts with a \`snapshot\` (the execution record); for an execution that already ended it is the only event.`,
    params: { id: executionRef },
    response: { status: 200, description: 'an event stream', schema: ref('BusEvent'), events: true },
    async handle({ params, req }) {
      const { from, snapshot } = startOf(log, req.headers['last-event-id']);
      // The log holds what happens during this read; from here on everything runs in one go, so no event slips between replay and follow.
      const record: ExecutionRecord = await executions.get(params.id);
      const sse = openEventStream(req);
      const mine = (e: LoggedEvent) => (e.data as { executionId?: string }).executionId === record.id;
      if (snapshot) sse.send(log.idOf(from), 'snapshot', record);
      const missed = log.after(from).filter(mine);
      for (const e of missed) sse.send(log.idOf(e.seq), e.name, e.data);
      if (missed.some(isFinalEnd) || !GOING.has(record.status)) {
        sse.end();
        return new RawAnswer(sse.response);
      }
      sse.onClose(
        log.follow((e) => {
          if (!mine(e)) return;
          sse.send(log.idOf(e.seq), e.name, e.data);
          if (isFinalEnd(e)) sse.end();
        }),
      );
      return new RawAnswer(sse.response);
    },
  },
  {
    method: 'GET',
    path: '/workflows/:id/events',
    operationId: 'workflowEvents',
    tag: 'events',
    summary: "Server-sent events of a workflow's executions as they start and end (execution:start, execution:end)",
    description: `${RESUMING} Here the \`snapshot\` is \`{items}\`: the workflow's 20 newest executions.`,
    params: { id: workflowRef },
    response: { status: 200, description: 'an event stream', schema: ref('BusEvent'), events: true },
    async handle({ params, req }) {
      const { from, snapshot } = startOf(log, req.headers['last-event-id']);
      const workflowId = (await findFlow(workflows, params.id)).flow.id;
      const newest = snapshot && req.headers['last-event-id'] !== undefined ? await executions.page({ workflowId, limit: 20 }) : null;
      const sse = openEventStream(req);
      const mine = (e: LoggedEvent) => (e.name === 'execution:start' || e.name === 'execution:end') && (e.data as { workflowId: string }).workflowId === workflowId;
      if (newest) sse.send(log.idOf(from), 'snapshot', { items: newest.items });
      for (const e of log.after(from).filter(mine)) sse.send(log.idOf(e.seq), e.name, e.data);
      sse.onClose(log.follow((e) => mine(e) && sse.send(log.idOf(e.seq), e.name, e.data)));
      return new RawAnswer(sse.response);
    },
  },
];
