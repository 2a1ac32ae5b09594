import type { Redis } from 'ioredis';
import type { ExecutionRecord } from '../flow/types.js';
import { withSealed } from '../resources/executions/stored.js';
import type { BurstDelivery, RunJob } from './types.js';

/** Redis's own clock: hosts' clocks may differ, the burst's times are all read on one. */
const NOW = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
`;

/**
 * KEYS burst (hash: run, first, due, data); ARGV id, periodMs, maxWaitMs (-1: none), data, keepMs. With no
 * open burst, `id` opens one due `period` from now (`maxWait` at most) and runs as it; with one, the delivery
 * joins it: its data becomes the run's and the due time moves to `period` from now, never past `maxWait` after
 * the first. The delivery that opened the burst, again (replayed), changes nothing. Returns {1 when `id` is the
 * run, the run's id, ms until it is due}.
 */
const DELIVER = `${NOW}
local burst, id = KEYS[1], ARGV[1]
local period, max_wait, data, keep = tonumber(ARGV[2]), tonumber(ARGV[3]), ARGV[4], tonumber(ARGV[5])
local run = redis.call('HGET', burst, 'run')
if run == id then
  return {1, id, math.max(0, tonumber(redis.call('HGET', burst, 'due')) - now)}
end
if run then
  local due = now + period
  if max_wait >= 0 then due = math.min(due, tonumber(redis.call('HGET', burst, 'first')) + max_wait) end
  redis.call('HSET', burst, 'due', due, 'data', data)
  redis.call('PEXPIRE', burst, math.max(0, due - now) + keep)
  return {0, run, math.max(0, due - now)}
end
local due = now + period
if max_wait >= 0 then due = math.min(due, now + max_wait) end
redis.call('HSET', burst, 'run', id, 'first', now, 'due', due, 'data', data)
redis.call('PEXPIRE', burst, due - now + keep)
return {1, id, due - now}
`;

/**
 * KEYS burst, taken (the data of a burst whose run began); ARGV run id, keepMs. The run's open burst not due
 * yet (a later delivery moved it): {0, ms until due}. Due: the burst closes (a delivery after this opens the
 * next) and its data is kept under `taken` for a run started again: {1, data}. Closed before: {1, data} while
 * kept, else {2} (its run was cancelled).
 */
const TAKE = `${NOW}
local burst, taken, id, keep = KEYS[1], KEYS[2], ARGV[1], tonumber(ARGV[2])
if redis.call('HGET', burst, 'run') == id then
  local due = tonumber(redis.call('HGET', burst, 'due'))
  if due > now then return {0, due - now} end
  local data = redis.call('HGET', burst, 'data')
  redis.call('SET', taken, data, 'PX', keep)
  redis.call('DEL', burst)
  return {1, data}
end
local data = redis.call('GET', taken)
if data then return {1, data} end
return {2}
`;

/** KEYS burst, taken; ARGV run id. Closes the run's burst (if still open) and forgets its data: its run will not start. */
const DROP = `
if redis.call('HGET', KEYS[1], 'run') == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('DEL', KEYS[2])
return 1
`;

/** An open burst outlives its due time by this long, for workers that are all down then (a burst nobody takes goes). */
const KEEP_OPEN_MS = 7 * 86_400_000;
/** A taken burst's data is needed only until the run's job holds it (see {@link RedisBursts.forget}). */
const KEEP_TAKEN_MS = 86_400_000;

/** The burst of one flow and key value (null: the flow's `settings.debounce` has no key). */
export interface BurstRef {
  flowId: string;
  key: string | null;
}

/** Where a run's burst stands when a worker takes its job: the job of its last delivery once it is due. */
export type Taken = { kind: 'wait'; ms: number } | { kind: 'run'; job: RunJob } | { kind: 'gone' };

/** What a burst holds of its last delivery. */
type Data = Pick<BurstDelivery, 'record' | 'sealed' | 'workflow'>;

/** The burst a job is the run of (null for a job of no burst). */
export const burstOf = (job: RunJob): BurstRef | null => (job.debounce ? { flowId: job.workflow.id, key: job.debounce.key } : null);

type Scripted = Redis & {
  weirDebounce(burst: string, id: string, periodMs: number, maxWaitMs: number, data: string, keepMs: number): Promise<[number, string, number]>;
  weirDebounceTake(burst: string, taken: string, id: string, keepMs: number): Promise<[number, (string | number)?]>;
  weirDebounceDrop(burst: string, taken: string, id: string): Promise<number>;
};

/**
 * The open bursts of `settings.debounce` on the execution queue, in Redis, shared by every host: one hash per
 * flow and key value (`<base>:debounce:<flow id>:<key>`) naming the burst's run (its first delivery's
 * execution id), when the burst began and is due, and the last delivery's data. Each step is one Lua script,
 * so deliveries arriving at several hosts at once agree on which one leads and which input runs, and a
 * delivery either joins a burst before its run takes the data or opens the next one.
 * @example
 * const bursts = createRedisBursts(redis, `${prefix}:weir`)
 * const { runId, lead, dueInMs } = await bursts.deliver({ record, workflow, key: 't1', periodMs: 1000, maxWaitMs: -1 })
 * const taken = await bursts.take({ flowId: workflow.id, key: 't1' }, runId, real) // { kind: 'wait', ms: 420 } until due
 */
export function createRedisBursts(redis: Redis, base: string) {
  const r = redis as Scripted;
  r.defineCommand('weirDebounce', { numberOfKeys: 1, lua: DELIVER });
  r.defineCommand('weirDebounceTake', { numberOfKeys: 2, lua: TAKE });
  r.defineCommand('weirDebounceDrop', { numberOfKeys: 2, lua: DROP });
  const burstKey = (ref: BurstRef) => `${base}:debounce:${ref.flowId}:${encodeURIComponent(ref.key ?? '')}`;
  const takenKey = (runId: string) => `${base}:debounce-taken:${runId}`;
  return {
    /**
     * Delivers `id` with its `data`: it opens a burst and runs (`lead`), or joins the open one, whose run
     * then takes this data. `maxWaitMs` -1 lets a burst go on as long as deliveries keep coming.
     */
    async deliver({ record, sealed, workflow, key, periodMs, maxWaitMs }: BurstDelivery): Promise<{ runId: string; lead: boolean; dueInMs: number }> {
      const data: Data = { record, sealed, workflow };
      const [lead, runId, dueInMs] = await r.weirDebounce(burstKey({ flowId: workflow.id, key }), record.id, periodMs, maxWaitMs, JSON.stringify(data), KEEP_OPEN_MS);
      return { runId: String(runId), lead: Number(lead) === 1, dueInMs: Number(dueInMs) };
    },
    /**
     * Takes the burst of `runId` for its run once it is due: the job of its last delivery (its flow, trigger
     * and input, unsealed with `real`), or how long to wait still.
     */
    async take(ref: BurstRef, runId: string, real: (record: ExecutionRecord) => Promise<ExecutionRecord>): Promise<Taken> {
      const [kind, value] = await r.weirDebounceTake(burstKey(ref), takenKey(runId), runId, KEEP_TAKEN_MS);
      if (Number(kind) === 0) return { kind: 'wait', ms: Number(value) };
      if (Number(kind) !== 1) return { kind: 'gone' };
      const { record, sealed, workflow } = JSON.parse(String(value)) as Data;
      const { input } = await real(withSealed(record, sealed));
      return { kind: 'run', job: { executionId: runId, workflow, input, trigger: record.trigger } };
    },
    /** Forgets a taken burst's data once the run's job holds it. */
    async forget(runId: string): Promise<void> {
      await redis.del(takenKey(runId));
    },
    /** Closes the burst of a cancelled run: later deliveries open a new one, and its run never starts. */
    async drop(ref: BurstRef, runId: string): Promise<void> {
      await r.weirDebounceDrop(burstKey(ref), takenKey(runId), runId);
    },
  };
}

export type RedisBursts = ReturnType<typeof createRedisBursts>;
