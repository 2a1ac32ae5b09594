import { join } from 'node:path';
import { WeirError } from '../../errors.js';
import type { FlowNode, PublishedWorkflow } from '../../resources/workflows/index.js';
import { sha256 } from '../../util/ids.js';
import { newExecutionId } from '../../resources/executions/ids.js';
import type { WeirConfig } from '../../config.js';
import type { WeirBus } from '../../events.js';
import type { Executions } from '../../resources/executions/index.js';
import type { BodyDecoder, Outcome, WebhookRequest } from '../../types/trigger.js';
import type { Capture } from './capture.js';
import { DEDUPE_WINDOW_MS, dedupeKey } from '../../runtime/durable/dedupe.js';
import { createDeliveries, type Delivery } from '../../runtime/durable/deliveries.js';
import type { Dispatcher } from '../../runtime/dispatch.js';
import type { FlowIndex } from '../../runtime/flow-index.js';
import { notLiveNotice, type NotLiveNoticeOptions } from './not-live.js';
import { createDeliveryQueue } from '../../runtime/durable/delivery-queue.js';
import { crashedError, maxCrashesOf } from '../../runtime/poison.js';
import type { ExecutionLimiter } from '../../runtime/execution-limiter.js';
import { createPacedBacklog } from '../../runtime/durable/paced-backlog.js';
import { WebhookInput } from './input.js';
import { createUnfinished } from '../../runtime/unfinished.js';
import type { StatusTokens } from '../../runtime/status-tokens.js';
import { httpAnswer } from '../http-answer.js';
import { statusUrlOf } from './status-url.js';

/** The webhook trigger's options (`idempotencyHeader` defaults to `Idempotency-Key`, `responseTimeoutMs` to 30000). */
export interface WebhookTriggerConfig {
  respondImmediately?: boolean;
  idempotencyHeader?: string;
  responseTimeoutMs?: number;
  dedupeWindowMs?: number;
}

/** Options of {@link createWebhooks}. */
export interface WebhooksOptions {
  /** The journal lives under `<home>/journal`; memory only without a home. */
  home?: string;
  config: Pick<WeirConfig, 'intake' | 'webhook'>;
  bus: WeirBus;
  executions: Pick<Executions, 'endedAmong' | 'open' | 'save'>;
  capture: Pick<Capture, 'capture'>;
  /** Runs the backlog's deliveries: the one bound on executions at once, shared with the other triggers of a host. */
  limiter: Pick<ExecutionLimiter, 'feed' | 'drain'>;
  dispatcher: Dispatcher;
  index: FlowIndex;
  /** Signs the status URL of each `respondImmediately` answer. */
  tokens: Pick<StatusTokens, 'ready' | 'tokenOf'>;
  /** Read on a known token's 404 only, to tell which flow is not published (and what its draft holds). */
  workflows: NotLiveNoticeOptions['workflows'];
  nodes: NotLiveNoticeOptions['nodes'];
}

/** What {@link createWebhooks} returns. */
export interface Webhooks {
  /** Opens the journal and replays what a previous host left unfinished; returns how many. */
  start(): Promise<number>;
  /**
   * Answers one request to `/trigger/<token>`; `decode` reads its body (called only once the token is known,
   * so unknown tokens cost no decoding).
   */
  deliver<R extends WebhookRequest>(req: R, token: string, decode: BodyDecoder<R>): Promise<Outcome>;
  /**
   * Waits for the executions running here, then closes the journal. Durable deliveries not started yet stay
   * in the journal for the next start; without a journal every accepted delivery runs first.
   */
  close(): Promise<void>;
  /** Deliveries accepted and not finished yet (running or waiting). */
  readonly backlog: number;
  /** True while a delivery accepted here has not ended: its record may not be written yet. */
  pending(executionId: string): boolean;
}

/** Deliveries a memory-only weir holds before intake waits for room. */
const MEMORY_BACKLOG = 5000;

/** The same answer for an unknown token and a flow without a published webhook trigger: 404, same body. */
const notFound = () => new WeirError('NOT_FOUND', 'not found');

const webhookNode = (pub: PublishedWorkflow | null): FlowNode | undefined => pub?.config.nodes.find((n) => n.type === 'webhook_trigger');

/**
 * Webhook intake: capture while a session listens, then the published flow's webhook
 * trigger: durable 200 `{executionId, statusUrl}` (journaled before the answer, replayed after a crash) or the
 * Respond node's answer; idempotency keys answered from the dedupe index.
 * @example
 * const webhooks = createWebhooks({ home, config, bus, executions, capture, limiter, dispatcher, index, tokens, workflows, nodes })
 * await webhooks.start() // replays deliveries a killed host left behind
 * const outcome = await webhooks.deliver(req, token, requestBody)
 */
export function createWebhooks(options: WebhooksOptions): Webhooks {
  const { bus, limiter, dispatcher, index, tokens } = options;
  const exposeErrors = options.config.webhook?.exposeErrors === true;
  const deliveries = createDeliveries<Outcome>({
    acceptedAnswer: (executionId, statusUrl) => ({ status: 200, body: { executionId, statusUrl } }),
    dir: options.home ? join(options.home, 'journal') : undefined,
    onOrphans: (list) => replay(list),
  });
  const backlog = createPacedBacklog<Delivery>({ start: run, limiter, queue: createDeliveryQueue() });
  const maxCrashes = maxCrashesOf(options.config);
  const tellNotLive = notLiveNotice(options);
  let started: Promise<number> | null = null;
  let ready = false;
  // What a status lookup needs before a record exists.
  const unfinished = createUnfinished();

  // Replayed deliveries whose execution ended before the crash (only its done mark was lost): found with one
  // pass over the execution records per replayed group, not one lookup each.
  let ended: Promise<Set<string>> = Promise.resolve(new Set());

  /** Queues deliveries found unfinished in the journal (at start, or adopted from a host that died). */
  function replay(list: Delivery[]): void {
    if (!list.length) return;
    const ids = new Set(list.map((d) => d.id));
    const since = list.reduce((min, d) => Math.min(min, d.at), Infinity);
    const found = options.executions.endedAmong(ids, since).catch(() => new Set<string>());
    ended = Promise.all([ended, found]).then(([all, more]) => {
      more.forEach((id) => all.add(id));
      return all;
    });
    for (const d of list) {
      unfinished.accepted(d.at);
      backlog.push(d);
    }
  }

  /**
   * Runs a delivery under its execution id, then lets the journal forget it. A replayed one runs only if its
   * execution never ended, and only after its start is counted on disk: one that already started
   * `maxCrashes` times (each start killed the host) is recorded as an `error` execution instead. The backlog
   * calls this in a slot of the limiter, so the execution starts at once (`runNow`) and gives the slot back
   * with `release` once its nodes are done.
   */
  async function run(queued: Delivery, release: () => void): Promise<void> {
    let d = queued;
    let recorded = true;
    unfinished.started(queued.id);
    try {
      d = await deliveries.load(queued);
      if (d.replayed && (await ended).has(d.id)) return void (await options.executions.open.remove(d.id));
      const pub = await index.published(d.workflowId);
      if (!webhookNode(pub)) throw new WeirError('NOT_FOUND', 'the flow was unpublished before its delivery ran');
      const starts = d.starts ?? 1;
      const refuse = d.replayed && starts >= maxCrashes ? crashedError(starts, 'host') : undefined;
      if (d.replayed && !refuse) d = await deliveries.restart(d);
      // A replayed delivery whose execution stored checkpoints goes on from them (or, refused, ends them).
      const stored = d.replayed ? await options.executions.open.get(d.id) : null;
      // One left queued by settings.concurrency or rateLimit never started: it is admitted again, as it came.
      const entry = stored?.record.status === 'queued' && stored.record.queuedFor?.rule !== 'debounce' ? null : stored;
      // A waiting execution is its wait's to continue, one queued by a debounce its burst's; one that ended just
      // before the crash (its final record
      // in the open entry) is made sure of, not run again.
      if (entry?.record.status === 'waiting' || entry?.record.status === 'queued') return;
      if (entry && entry.record.status !== 'running') return void (await options.executions.save(entry.record).then(() => options.executions.open.remove(d.id)));
      // The real data (sealed where a secret was), not the masked record that is shown.
      const resume = entry ? await options.executions.open.real(entry.record) : undefined;
      const restartedBy = deliveries.durable ? 'journal' : undefined;
      const ran = await dispatcher.runNow({ flow: pub!, input: d.input, trigger: 'webhook', executionId: d.id, refuse, resume, restartedBy, background: true }, release);
      // The queued entry a dead host left goes once the run stored its own record (admitted at once, the run wrote none over it).
      if (stored?.record.status === 'queued' && ran.status !== 'waiting') await options.executions.open.remove(d.id);
    } catch (error) {
      recorded = false;
      bus.emit('webhook:error', { executionId: d.id, workflowId: d.workflowId, error });
    } finally {
      unfinished.ended(d.id, recorded);
      deliveries.finish(d);
    }
  }

  return {
    start() {
      started ??= Promise.all([deliveries.open(), tokens.ready()]).then(([list]) => {
        replay(list);
        ready = true;
        return list.length;
      });
      return started;
    },

    async deliver(req, token, decode) {
      backlog.noteIntake();
      const found = index.byToken(token);
      const hit = found instanceof Promise ? await found : found;
      if (!hit) throw notFound();
      const session = hit.capture;
      if (session?.state === 'listening' && Date.parse(session.expiresAt) > Date.now()) {
        const request = { method: req.method, headers: req.headers, query: req.query, body: await captureBody(req, decode) };
        if (await options.capture.capture(hit.id, request)) return { status: 200, body: { captured: true } };
      }
      const trigger = webhookNode(hit.published);
      if (!trigger) {
        tellNotLive(hit);
        throw notFound();
      }
      const config = (trigger.config ?? {}) as WebhookTriggerConfig;
      const decoded = decode(req);
      const body = decoded instanceof Promise ? await decoded : decoded;
      const input = new WebhookInput(body, req.headers, req.query, req.method);
      if (!ready) await this.start();

      const keyValue = req.headers[(config.idempotencyHeader ?? 'Idempotency-Key').toLowerCase()];
      const key = keyValue ? dedupeKey(hit.id, keyValue) : null;
      if (key) {
        const seen = deliveries.dedupe.seen(key);
        if (seen) return copyOutcome(await seen);
      }
      const exp = Date.now() + (config.dedupeWindowMs ?? DEDUPE_WINDOW_MS);
      const claim = key ? deliveries.dedupe.claim(key, exp - Date.now()) : null;
      try {
        if (config.respondImmediately === false) {
          const run = await dispatcher.answer({ flow: hit.published!, input, trigger: 'webhook' }, { timeoutMs: config.responseTimeoutMs ?? 30000 });
          const answer = httpAnswer(run, { exposeErrors });
          if (key) await deliveries.remember(key, answer, exp);
          claim?.settle(answer);
          return copyOutcome(answer);
        }
        // Without a journal the backlog holds every input in memory: past its room, intake waits.
        if (!deliveries.durable) await backlog.room(MEMORY_BACKLOG);
        // With an execution queue the job stored in Redis is the durable record and any worker runs it; an
        // idempotency key names the execution, so a duplicate reaching another host is not run twice either.
        const id = dispatcher.queued && key ? `exec_${sha256(key).slice(0, 24)}` : newExecutionId();
        const delivery: Delivery = { id, workflowId: hit.id, input, at: Date.now() };
        const token = tokens.tokenOf(id);
        const statusUrl = statusUrlOf(req, typeof token === 'string' ? token : await token);
        if (dispatcher.queued) await dispatcher.enqueue({ flow: hit.published!, input, trigger: 'webhook', executionId: id });
        else {
          await deliveries.accept(delivery, key ? { key, exp, statusUrl } : undefined);
          unfinished.accepted(delivery.at);
          backlog.push(delivery);
        }
        const answer: Outcome = { status: 200, body: { executionId: id, statusUrl } };
        claim?.settle(answer);
        return copyOutcome(answer);
      } catch (err) {
        claim?.forget();
        throw err;
      }
    },

    async close() {
      await started?.catch(() => 0);
      if (deliveries.durable) backlog.pause();
      await backlog.idle();
      backlog.stop();
      await limiter.drain();
      await deliveries.close();
    },

    get backlog() {
      return backlog.size;
    },

    pending: (executionId) => unfinished.has(executionId),
  };
}

/** A copy of an outcome (duplicates must not share mutable objects). */
const copyOutcome = (a: Outcome): Outcome => ({ status: a.status, headers: a.headers && { ...a.headers }, body: a.body });

/** A captured body: decoded like a delivery's, but a malformed JSON body is kept as its text (in its charset). */
async function captureBody<R extends WebhookRequest>(req: R, decode: BodyDecoder<R>): Promise<unknown> {
  try {
    return (await decode(req)).value;
  } catch (err) {
    if ((err as WeirError).code !== 'INVALID_INPUT') throw err;
    return (await decode(req, (req.headers['content-type'] ?? '').replace(/^[^;]*/, 'text/plain'))).value;
  }
}

