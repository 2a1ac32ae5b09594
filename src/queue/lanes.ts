import type { Redis } from 'ioredis';
import type { Cluster } from '../cluster/index.js';

/**
 * Shared by both scripts: Redis's own clock (hosts' clocks may differ), and `fill`, which hands free places
 * to the head of the line, in order, and returns the ids it let in (their parked jobs are promoted).
 */
const COMMON = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local function fill(held, line, room, score)
  local let_in = {}
  while room() do
    local head = redis.call('LPOP', line)
    if not head then break end
    redis.call('ZADD', held, score, head)
    table.insert(let_in, head)
  end
  return let_in
end
`;

/**
 * Concurrency: KEYS holders (zset id -> lease expiry), line (list of ids); ARGV id, limit, leaseMs, pickupMs.
 * Expired leases go first (a killed worker's slot comes back), then the line's head takes free places (with
 * `pickupMs` to be picked up), then `id`: a holder already (renewed), or in line (stays), or new (takes a
 * place when none waits before it, else joins the line). Returns {ok, position in line or -1, ...let in}.
 */
const CONCURRENCY = `${COMMON}
local held, line, id = KEYS[1], KEYS[2], ARGV[1]
local limit, lease, pickup = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
redis.call('ZREMRANGEBYSCORE', held, '-inf', now)
local room = function() return redis.call('ZCARD', held) < limit end
local let_in = fill(held, line, room, now + pickup)
local ok, pos = 0, -1
if redis.call('ZSCORE', held, id) then
  redis.call('ZADD', held, now + lease, id)
  ok = 1
else
  pos = redis.call('LPOS', line, id)
  if not pos then
    if room() then redis.call('ZADD', held, now + lease, id); ok = 1; pos = -1
    else redis.call('RPUSH', line, id); pos = redis.call('LLEN', line) - 1 end
  end
end
redis.call('PEXPIRE', held, 7 * 86400000)
return {ok, pos, unpack(let_in)}
`;

/** Concurrency: KEYS holders, line; ARGV id, limit, pickupMs. Gives `id`'s place (or its place in line) back; returns the ids let in. */
const RELEASE = `${COMMON}
local held, line, id = KEYS[1], KEYS[2], ARGV[1]
local limit, pickup = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREM', held, id)
redis.call('LREM', line, 0, id)
redis.call('ZREMRANGEBYSCORE', held, '-inf', now)
return fill(held, line, function() return redis.call('ZCARD', held) < limit end, now + pickup)
`;

/** Either rule: KEYS places, line; ARGV id. Puts `id` at the end of the line unless it holds a place or is in line already. */
const ARRIVE = `
if redis.call('ZSCORE', KEYS[1], ARGV[1]) or redis.call('LPOS', KEYS[2], ARGV[1]) then return 0 end
redis.call('RPUSH', KEYS[2], ARGV[1])
return 1
`;

/** Concurrency: KEYS holders; ARGV id, ms. Moves `id`'s lease to `ms` from now (never earlier), if it still holds a place. */
const RENEW = `${COMMON}
return redis.call('ZADD', KEYS[1], 'XX', 'GT', now + tonumber(ARGV[2]), ARGV[1])
`;

/**
 * Rate limit: KEYS starts (zset id -> start time), line; ARGV id, limit, periodMs. Starts older than the
 * period age out; the line's head starts while the window has room, then `id` as for concurrency. Returns
 * {ok, position or -1, when the oldest start ages out (ms from now), ...let in}.
 */
const RATE = `${COMMON}
local starts, line, id = KEYS[1], KEYS[2], ARGV[1]
local limit, period = tonumber(ARGV[2]), tonumber(ARGV[3])
redis.call('ZREMRANGEBYSCORE', starts, '-inf', now - period)
local room = function() return redis.call('ZCARD', starts) < limit end
local let_in = fill(starts, line, room, now)
local ok, pos = 0, -1
if redis.call('ZSCORE', starts, id) then ok = 1
else
  pos = redis.call('LPOS', line, id)
  if not pos then
    if room() then redis.call('ZADD', starts, now, id); ok = 1; pos = -1
    else redis.call('RPUSH', line, id); pos = redis.call('LLEN', line) - 1 end
  end
end
local oldest = redis.call('ZRANGE', starts, 0, 0, 'WITHSCORES')
local opens = oldest[2] and math.max(0, tonumber(oldest[2]) + period - now) or 0
redis.call('PEXPIRE', starts, math.max(period * 2, 60000))
return {ok, pos, opens, unpack(let_in)}
`;

/** How an execution stands in a lane after asking for a place. */
export interface LaneAnswer {
  /** It holds a place (a concurrency slot, or a start in the rate window). */
  ok: boolean;
  /** Its place in line (0 = next), -1 when it holds a place. */
  position: number;
  /** Rate limit: ms until the window's oldest start ages out (when the next one may start). */
  opensInMs: number;
  /** Other executions of the line that got a place meanwhile: their parked jobs are to be promoted. */
  letIn: string[];
}

/** The Redis keys of one lane (a rule of a flow, for one key value). */
export interface LaneRef {
  rule: 'concurrency' | 'rateLimit';
  flowId: string;
  key: string | null;
  limit: number;
  /** The rate limit's period (0 for concurrency). */
  periodMs: number;
}

type Scripted = Redis & {
  weirConcurrency(held: string, line: string, id: string, limit: number, lease: number, pickup: number): Promise<unknown[]>;
  weirRelease(held: string, line: string, id: string, limit: number, pickup: number): Promise<string[]>;
  weirRenew(held: string, id: string, ms: number): Promise<number>;
  weirArrive(held: string, line: string, id: string): Promise<number>;
  weirRate(starts: string, line: string, id: string, limit: number, period: number): Promise<unknown[]>;
};

/**
 * Per-key lanes of the flows' concurrency and rate limits in Redis, shared by every worker of the queue. A
 * concurrency slot is a lease (a sorted set of holders scored by expiry) that the worker running the
 * execution renews: a worker killed with SIGKILL gives its slots back once their leases run out. Waiting
 * executions form a FIFO list per lane; a freed place goes to its head, in the same script.
 * @example
 * const lanes = createRedisLanes(new Redis(url), `${prefix}:weir`, { leaseMs: 30000 })
 * const answer = await lanes.take(lane, 'exec_1') // { ok: false, position: 3, letIn: [] }
 */
export function createRedisLanes(redis: Redis, base: string, { leaseMs }: { leaseMs: number }) {
  const r = redis as Scripted;
  // A place handed to a parked execution waits this long for a worker to pick its job up.
  const pickupMs = leaseMs * 4;
  // The connection is the lanes' own (made for them by the queue), so the scripts are defined once on it.
  r.defineCommand('weirConcurrency', { numberOfKeys: 2, lua: CONCURRENCY });
  r.defineCommand('weirRelease', { numberOfKeys: 2, lua: RELEASE });
  r.defineCommand('weirRenew', { numberOfKeys: 1, lua: RENEW });
  r.defineCommand('weirArrive', { numberOfKeys: 2, lua: ARRIVE });
  r.defineCommand('weirRate', { numberOfKeys: 2, lua: RATE });
  const keys = (lane: LaneRef) => {
    const name = `${base}:lane:${lane.flowId}:${lane.rule}:${encodeURIComponent(lane.key ?? '')}`;
    return [`${name}:held`, `${name}:line`] as const;
  };
  const answer = (raw: unknown[], withOpens: boolean): LaneAnswer => {
    const [ok, position, ...rest] = raw;
    const opensInMs = withOpens ? Number(rest.shift()) : 0;
    return { ok: Number(ok) === 1, position: Number(position), opensInMs, letIn: rest.map(String) };
  };
  return {
    leaseMs,
    /**
     * Lines `id` up as it is enqueued, so the order of a lane is the order of arrival on the queue, not the
     * order in which workers happen to take the jobs.
     */
    async arrive(lane: LaneRef, id: string): Promise<void> {
      const [held, line] = keys(lane);
      await r.weirArrive(held, line, id);
    },
    /** Asks for a place for `id` (again: a holder renews, one in line keeps its place). */
    async take(lane: LaneRef, id: string): Promise<LaneAnswer> {
      const [held, line] = keys(lane);
      if (lane.rule === 'rateLimit') return answer(await r.weirRate(held, line, id, lane.limit, lane.periodMs), true);
      return answer(await r.weirConcurrency(held, line, id, lane.limit, leaseMs, pickupMs), false);
    },
    /** Renews `id`'s concurrency lease for `ms` (a worker running it does so while it runs). */
    async renew(lane: LaneRef, id: string, ms = leaseMs): Promise<void> {
      const [held] = keys(lane);
      await r.weirRenew(held, id, ms);
    },
    /** Gives `id`'s concurrency slot, or its place in line, back; resolves with the ids let in. */
    async release(lane: LaneRef, id: string): Promise<string[]> {
      const [held, line] = keys(lane);
      if (lane.rule === 'rateLimit') {
        await redis.lrem(line, 0, id);
        return [];
      }
      return (await r.weirRelease(held, line, id, lane.limit, pickupMs)).map(String);
    },
  };
}

export type RedisLanes = ReturnType<typeof createRedisLanes>;

/**
 * Executions of this process waiting for a lane to let them in: one listens before it asks the lane (a
 * message sent in between is not missed), then waits until the cluster message naming it comes, or `ms`
 * pass (a message lost with its sender is made up for by asking the lane again).
 * @example
 * const letIn = createLetIn(cluster, 'lanes:let-in')
 * const turn = await letIn.listen('exec_1')
 * if (!(await lanes.take(lane, 'exec_1')).ok) await turn.until(60000)
 * turn.stop()
 */
export function createLetIn(cluster: Pick<Cluster, 'subscribe'>, channel: string) {
  const waiting = new Map<string, () => void>();
  const wakeAll = () => {
    for (const wake of [...waiting.values()]) wake();
  };
  let listening: Promise<unknown> | undefined;
  return {
    async listen(id: string) {
      // After a lost connection every waiter asks again: its let-in message may have been sent meanwhile.
      await (listening ??= cluster.subscribe(channel, (message) => waiting.get(String(message))?.(), wakeAll));
      let told = false;
      let wake = () => void (told = true);
      waiting.set(id, () => wake());
      return {
        /** Resolves once told (perhaps already) or after `ms`. */
        until: (ms: number) =>
          new Promise<void>((resolve) => {
            if (told) return resolve();
            const timer = setTimeout(() => wake(), ms);
            timer.unref();
            wake = () => {
              clearTimeout(timer);
              resolve();
            };
          }),
        stop: () => waiting.delete(id),
      };
    },
    /** Lets every waiter ask again (the process is closing). */
    close: wakeAll,
  };
}

export type LetIn = ReturnType<typeof createLetIn>;
