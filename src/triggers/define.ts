import type { WeirConfig } from '../config.js';
import type { WeirBus } from '../events.js';
import type { NodeDefinition } from '../nodes/define.js';
import type { PublishedWorkflow } from '../resources/workflows/index.js';
import type { VoiceAgents } from '../resources/voice-agents/index.js';
import type { Dispatcher } from '../runtime/dispatch.js';
import type { Runtime } from '../runtime/index.js';
import type { Storages } from '../storage/index.js';
import type { HostRequest, Route } from '../types/http.js';
import type { BodyDecoder } from '../types/trigger.js';
import type { Clock } from '../util/wake-timer.js';

/**
 * What a trigger is given to run its flows, and nothing more: the dispatcher, the published flows of its
 * kind, the bus, the storage, the one claim mechanism a cluster or a shared home offers, the host's
 * body decoder and its wake-up clock.
 */
export interface TriggerRuntime {
  config: WeirConfig;
  /** The one way from a trigger event to an execution (bounded by the execution limiter, queued in a cluster). */
  dispatcher: Dispatcher;
  /** The published flows whose trigger node is this trigger's. */
  published(): Promise<PublishedWorkflow[]>;
  bus: WeirBus;
  storage: Storages;
  /**
   * Claims a named occasion (a schedule's fire time) for this host alone among those sharing a cluster or a
   * home; undefined when nothing else can share this weir's flows (every occasion is this host's).
   */
  claim?(name: string, at: number): Promise<boolean>;
  /** Tells `listener` whenever the published flows may have changed (here, on another host or process). */
  onFlowsChanged(listener: () => void): () => void;
  /** Decodes a request body as every route does (content coding, charset, forms, multipart). */
  decode: BodyDecoder<HostRequest>;
  /** What the built-in triggers share with the runtime: webhook intake, interface events, status tokens, the limiter's readiness. */
  runtime: Pick<Runtime, 'webhooks' | 'events' | 'status' | 'limiter'>;
  voiceAgents: Pick<VoiceAgents, 'secrets' | 'telephonyFlows' | 'inboundMapping'>;
  /** The timer's clock (tests move it by hand). */
  clock?: Clock;
  /** Told about errors of what the trigger started (a failed sync), which no caller sees. */
  onError(err: unknown): void;
}

/** What a trigger's `start` returns: stops what it started; a host awaits it on close. */
export type StopTrigger = () => void | Promise<void>;

/** A trigger kind (see {@link defineTrigger}). */
export interface TriggerDefinition {
  /** Its node: the `*_trigger` node a flow starts with. */
  node: NodeDefinition<any>;
  /** Its HTTP routes by route group (a host answers the groups it is given, all by default). */
  routes?: Record<string, (runtime: TriggerRuntime) => Route[]>;
  /** Starts its timers or watchers once a host starts; resolves with how to stop them. */
  start?(runtime: TriggerRuntime): Promise<StopTrigger>;
}

/**
 * Declares a trigger kind: its node, the HTTP routes it answers (mounted by the host) and what it starts
 * (timers, watchers) against the narrow {@link TriggerRuntime}. Give custom ones to `createWeir({ triggers })`.
 * @example
 * const everyMinute = defineTrigger({
 *   node: defineNode({ type: 'minute_trigger', trigger: true, run: (ctx) => ctx.input }),
 *   async start(rt) {
 *     const timer = setInterval(async () => {
 *       for (const flow of await rt.published()) await rt.dispatcher.run({ flow, input: {}, trigger: 'schedule' })
 *     }, 60_000)
 *     return () => clearInterval(timer)
 *   },
 * })
 */
export function defineTrigger(definition: TriggerDefinition): TriggerDefinition {
  return definition;
}
