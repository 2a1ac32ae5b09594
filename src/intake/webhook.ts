import { join } from 'node:path';
import { WeirError } from '../errors.js';
import { requestBody } from '../host/request-body.js';
import type { HostRequest, HostResponse, Route } from '../host/types.js';
import type { FlowNode, PublishedWorkflow } from '../resources/workflows/index.js';
import { sha256 } from '../util/ids.js';
import { newExecutionId } from '../resources/executions/ids.js';
import type { Weir } from '../weir.js';
import { DEDUPE_WINDOW_MS, dedupeKey, toResponse, type Answer } from './dedupe.js';
import { createDeliveries, type Delivery } from './durable.js';
import { createFlowIndex, type FlowIndex } from './flow-index.js';
import { enqueueExecution, startExecution, waitForAnswer } from './execute.js';
import { createBacklog } from './backlog.js';
import { createDeliveryQueue } from './delivery-queue.js';
import { crashedError, maxCrashesOf } from './poison.js';
import { createRunner, type Runner, type RunnerOptions } from './runner.js';
import { WebhookInput } from './webhook-input.js';

/** The webhook trigger's options (seed 2.3, CONTRACT 11). */
export interface WebhookTriggerConfig {
  respondImmediately?: boolean;
  idempotencyHeader?: string;
  responseTimeoutMs?: number;
  dedupeWindowMs?: number;
}

/** Options of {@link createWebhooks}. */
export interface WebhooksOptions extends RunnerOptions {
  weir: Weir;
  /** Shared with the other triggers of a host, so one shutdown drains every execution. */
  runner?: Runner;
  index?: FlowIndex;
}

export type Webhooks = ReturnType<typeof createWebhooks>;

/** Deliveries a memory-only weir holds before intake waits for room. */
const MEMORY_BACKLOG = 5000;

/** The same answer for an unknown token and a flow without a published webhook trigger (CONTRACT 5). */
const notFound = () => new WeirError('NOT_FOUND', 'not found');

const webhookNode = (pub: PublishedWorkflow | null): FlowNode | undefined => pub?.config.nodes.find((n) => n.type === 'webhook_trigger');

/**
 * Webhook intake (CONTRACT 5 and 6): capture while a session listens, then the published flow's webhook
 * trigger: durable 200 `{executionId}` (journaled before the answer, replayed after a crash) or the
 * Respond node's answer; idempotency keys answered from the dedupe index.
 * @example
 * const webhooks = createWebhooks({ weir })
 * await webhooks.start() // replays deliveries a killed host left behind
 * const res = await webhooks.deliver(req, token)
 */
export function createWebhooks(options: WebhooksOptions) {
  const { weir } = options;
  const runner = options.runner ?? createRunner(options);
  const index = options.index ?? createFlowIndex({ weir });
  const deliveries = createDeliveries({
    dir: weir.home ? join(weir.home, 'journal') : undefined,
    onOrphans: (list) => replay(list),
  });
  const backlog = createBacklog<Delivery>({ start: run, queue: createDeliveryQueue() });
  const maxCrashes = maxCrashesOf(weir.config);
  let started: Promise<number> | null = null;
  let ready = false;

  // Replayed deliveries whose execution ended before the crash (only its done mark was lost): found with one
  // pass over the execution records per replayed group, not one lookup each.
  let ended: Promise<Set<string>> = Promise.resolve(new Set());

  /** Queues deliveries found unfinished in the journal (at start, or adopted from a host that died). */
  function replay(list: Delivery[]): void {
    if (!list.length) return;
    const ids = new Set(list.map((d) => d.id));
    const since = list.reduce((min, d) => Math.min(min, d.at), Infinity);
    const found = weir.executions.endedAmong(ids, since).catch(() => new Set<string>());
    ended = Promise.all([ended, found]).then(([all, more]) => {
      more.forEach((id) => all.add(id));
      return all;
    });
    list.forEach((d) => backlog.push(d));
  }

  /**
   * Runs a delivery under its execution id, then lets the journal forget it. A replayed one runs only if its
   * execution never ended, and only after its start is counted on disk: one that already started
   * `maxCrashes` times (each start killed the host) is recorded as an `error` execution instead.
   */
  async function run(queued: Delivery): Promise<void> {
    let d = queued;
    try {
      d = await deliveries.load(queued);
      if (d.replayed && (await ended).has(d.id)) return;
      const pub = await index.published(d.workflowId);
      if (!webhookNode(pub)) throw new WeirError('NOT_FOUND', 'the flow was unpublished before its delivery ran');
      const starts = d.starts ?? 1;
      const refuse = d.replayed && starts >= maxCrashes ? crashedError(starts, 'host') : undefined;
      if (d.replayed && !refuse) d = await deliveries.restart(d);
      await startExecution(weir, { workflow: pub!, input: d.input, trigger: 'webhook', executionId: d.id, refuse });
    } catch (error) {
      weir.bus.emit('webhook:error', { executionId: d.id, workflowId: d.workflowId, error });
    } finally {
      deliveries.finish(d);
    }
  }

  return {
    /** Opens the journal and replays what a previous host left unfinished; returns how many. */
    start(): Promise<number> {
      started ??= deliveries.open().then((list) => {
        replay(list);
        ready = true;
        return list.length;
      });
      return started;
    },

    /** Answers one request to `/trigger/<token>`. */
    async deliver(req: HostRequest, token: string): Promise<HostResponse> {
      backlog.noteIntake();
      const found = index.byToken(token);
      const hit = found instanceof Promise ? await found : found;
      if (!hit) throw notFound();
      const session = hit.capture;
      if (session?.state === 'listening' && Date.parse(session.expiresAt) > Date.now()) {
        const request = { method: req.method, headers: req.headers, query: req.query, body: await captureBody(req) };
        if (await weir.capture.capture(hit.id, request)) return { status: 200, body: { captured: true } };
      }
      const trigger = webhookNode(hit.published);
      if (!trigger) throw notFound();
      const config = (trigger.config ?? {}) as WebhookTriggerConfig;
      const decoded = requestBody(req);
      const body = decoded instanceof Promise ? await decoded : decoded;
      const input = new WebhookInput(body, req.headers, req.query, req.method);
      if (!ready) await this.start();

      const keyValue = req.headers[(config.idempotencyHeader ?? 'Idempotency-Key').toLowerCase()];
      const key = keyValue ? dedupeKey(hit.id, keyValue) : null;
      if (key) {
        const seen = deliveries.dedupe.seen(key);
        if (seen) return toResponse(await seen);
      }
      const exp = Date.now() + (config.dedupeWindowMs ?? DEDUPE_WINDOW_MS);
      const claim = key ? deliveries.dedupe.claim(key, exp - Date.now()) : null;
      try {
        if (config.respondImmediately === false) {
          const answer = await waitForAnswer(weir, runner, { workflow: hit.published!, input, trigger: 'webhook', timeoutMs: config.responseTimeoutMs ?? 30000 });
          if (key) await deliveries.remember(key, answer, exp);
          claim?.settle(answer);
          return toResponse(answer);
        }
        // Without a journal the backlog holds every input in memory: past its room, intake waits.
        if (!deliveries.durable) await backlog.room(MEMORY_BACKLOG);
        // With an execution queue the job stored in Redis is the durable record and any worker runs it; an
        // idempotency key names the execution, so a duplicate reaching another host is not run twice either.
        const id = weir.queue && key ? `exec_${sha256(key).slice(0, 24)}` : newExecutionId();
        const delivery: Delivery = { id, workflowId: hit.id, input, at: Date.now() };
        if (weir.queue) await enqueueExecution(weir, { workflow: hit.published!, input, trigger: 'webhook', executionId: id });
        else {
          await deliveries.accept(delivery, key ? { key, exp } : undefined);
          backlog.push(delivery);
        }
        const answer: Answer = { status: 200, body: { executionId: delivery.id } };
        claim?.settle(answer);
        return toResponse(answer);
      } catch (err) {
        claim?.forget();
        throw err;
      }
    },

    /**
     * Waits for the executions running here, then closes the journal. Durable deliveries not started yet stay
     * in the journal for the next start; without a journal every accepted delivery runs first.
     */
    async close(): Promise<void> {
      await started?.catch(() => 0);
      if (deliveries.durable) backlog.pause();
      await backlog.idle();
      backlog.stop();
      await runner.drain();
      await deliveries.close();
    },

    /** Deliveries accepted and not finished yet (running or waiting). */
    get backlog(): number {
      return backlog.size;
    },
  };
}

/** A captured body: decoded like a delivery's, but a malformed JSON body is kept as its text (in its charset). */
async function captureBody(req: HostRequest): Promise<unknown> {
  try {
    return (await requestBody(req)).value;
  } catch (err) {
    if ((err as WeirError).code !== 'INVALID_INPUT') throw err;
    return (await requestBody(req, (req.headers['content-type'] ?? '').replace(/^[^;]*/, 'text/plain'))).value;
  }
}

/** `/trigger/<token>`, any method. */
export const webhookRoutes: Route[] = [
  {
    path: '/trigger/:token',
    handle: (req, params, weir) => weir.intake.webhooks.deliver(req, params.token),
  },
];
