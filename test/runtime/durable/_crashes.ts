// Crash points: a `weir serve` killed with SIGKILL at a STEP (the Nth side effect its flows make), restarted,
// killed again at a step of the replay, and restarted; then every durable delivery that was answered must have
// its record, finished, and every side effect of it must have reached the receiver (exactly once applied).
// Shared by the property (test/props/crash-points.test.ts) and the example tests of test/runtime/durable.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import { createWeir } from '../../../src/weir.js';
import { startServe, tmpDir, writeJson } from '../../_utils.js';
import { publish, until } from '../../host/_helpers.js';

/** A node of a generated flow: a side effect (an http_request POST to the receiver), a pure `set`, or a 50 ms `delay`. */
export type Step = 'effect' | 'pure' | 'pause';

/**
 * When a kill lands: as the Nth side effect arrives (before it is answered), once it has been answered, or (the
 * first kill only) once the Nth delivery has been answered 200.
 */
export interface KillPoint {
  step: number;
  when: 'received' | 'answered' | 'accepted';
}

/**
 * The test's own receiver of side effects, deduplicating by `Idempotency-Key` as a real API would: a repeated
 * key is answered what its first call was, and applied once. `trap` kills a host at the Nth call from now.
 */
export async function receiver() {
  /** Calls per key (a repeat is a node run again after a kill, under the same key). */
  const arrivals = new Map<string, number>();
  /** What applying each key's call made: the order it was first applied in. */
  const applied = new Map<string, { applied: number }>();
  let calls = 0;
  let trap: { at: number; when: KillPoint['when']; fire(): void; done: boolean } | null = null;
  const spring = () => {
    if (trap && !trap.done) {
      trap.done = true;
      trap.fire();
    }
  };
  const server: Server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const key = req.headers['idempotency-key'] as string;
      calls++;
      arrivals.set(key, (arrivals.get(key) ?? 0) + 1);
      if (!applied.has(key)) applied.set(key, { applied: applied.size + 1 });
      const due = trap && !trap.done && calls >= trap.at;
      if (due && trap!.when === 'received') return spring(); // the host dies before its call is answered
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(applied.get(key)), () => due && spring());
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/effect`,
    arrivals,
    applied,
    /** Calls `fire` when the `point.step`th call from now arrives or is answered; `fire()` now when `now()` says so. */
    arm(point: KillPoint, fire: () => void) {
      trap = { at: calls + point.step, when: point.when, fire, done: false };
      return { spring, get fired() { return trap!.done; } };
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** The generated flow: webhook (durable 200) -> the steps in a chain; effects POST `{id}` to the receiver. */
export function crashFlow(steps: Step[], url: string) {
  const nodes = steps.map((s, i) =>
    s === 'effect'
      ? { id: `http_request-${i + 1}`, type: 'http_request', config: { method: 'POST', url, body: { id: '{{ $execution.id }}' }, timeoutMs: 30_000 } }
      : s === 'pure'
        ? { id: `set-${i + 1}`, type: 'set', config: { values: { at: i + 1, n: '{{ $input.body.n }}' } } }
        : { id: `delay-${i + 1}`, type: 'delay', config: { ms: 50 } },
  );
  const edges = nodes.map((n, i) => ({ id: `e${i + 1}`, source: i ? nodes[i - 1].id : 'webhook_trigger-1', target: n.id }));
  return { nodes, edges };
}

/** One crash case: the flow, how many deliveries, and the two kills (the second counts from the restart). */
export interface CrashCase {
  steps: Step[];
  deliveries: number;
  first: KillPoint;
  second: KillPoint;
  /** The retention cap of the home (default: none that matters). */
  maxPerWorkflow?: number;
}

/**
 * Runs one case on a fresh fs home and asserts what must hold after the two kills; returns counts to print.
 * Deliveries go 16 at a time until the first kill; a kill step past the last side effect of what was sent
 * lands once the last one is answered.
 */
export async function runCrashCase(c: CrashCase) {
  const effects = await receiver();
  const home = tmpDir('weir-crash-');
  writeJson(home, 'weir.config.json', { executions: { maxPerWorkflow: c.maxPerWorkflow ?? 1_000_000 } });
  const setup = await createWeir({ home });
  const { nodes, edges } = crashFlow(c.steps, effects.url);
  const { id: workflowId, token } = await publish(setup, 'crash', { type: 'webhook_trigger', config: { respondImmediately: true } }, nodes, edges);
  await setup.close();
  const effectIds = nodes.filter((n) => n.type === 'http_request').map((n) => n.id);
  /** executionId -> the path of its status URL */
  const answered = new Map<string, string>();
  const keysOf = (ids: Iterable<string>) => [...ids].flatMap((x) => effectIds.map((n) => `${x}:${n}`));
  const allArrived = () => keysOf(answered.keys()).every((k) => effects.arrivals.has(k));
  const hosts: Array<Awaited<ReturnType<typeof startServe>>> = [];
  try {
    // Life 1: load until the first kill.
    const first = await startServe(home);
    hosts.push(first);
    let kill1 = () => {};
    const killed1 = new Promise<void>((r) => (kill1 = () => (first.child.kill('SIGKILL'), r())));
    if (c.first.when !== 'accepted') effects.arm(c.first, kill1);
    let next = 0;
    const worker = async () => {
      while (next < c.deliveries && first.child.exitCode === null && first.child.signalCode === null) {
        const n = next++;
        try {
          const res = await fetch(`${first.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n }) });
          if (res.status === 200) {
            const body = (await res.json()) as { executionId: string; statusUrl: string };
            answered.set(body.executionId, new URL(body.statusUrl).pathname);
            if (c.first.when === 'accepted' && answered.size >= c.first.step) kill1();
          }
        } catch {
          // killed under this request: never answered, so nothing was promised
        }
      }
    };
    await Promise.all(Array.from({ length: 16 }, worker));
    await killed1;
    await first.stop('SIGKILL');

    // Life 2: the replay, killed at a step of its own (or once every answered delivery's effects arrived).
    const second = await startServe(home);
    hosts.push(second);
    const killed2 = new Promise<void>((r) => {
      const trap = effects.arm(c.second, () => (second.child.kill('SIGKILL'), r()));
      const poll = setInterval(() => {
        if (!trap.fired && allArrived()) trap.spring();
        if (trap.fired) clearInterval(poll);
      }, 5);
    });
    await killed2;
    await second.stop('SIGKILL');

    // Life 3: everything answered ends, with its record.
    const third = await startServe(home);
    hosts.push(third);
    const status = async (path: string) => {
      const res = await fetch(`${third.url}${path}`);
      return { code: res.status, body: res.status === 200 ? ((await res.json()) as { status: string }) : null };
    };
    const missing = new Set(answered.keys());
    await until(async () => {
      for (const x of [...missing]) {
        const s = await status(answered.get(x)!);
        if (s.body?.status === 'success') missing.delete(x);
      }
      return missing.size === 0;
    }, 60_000, `every answered execution to succeed (${missing.size} of ${answered.size} left)`).catch(async () => {
      const sample = await Promise.all([...missing].slice(0, 5).map(async (x) => `${x}: ${JSON.stringify(await status(answered.get(x)!))}`));
      assert.unreachable(`${missing.size} of ${answered.size} answered executions have no finished record:\n${sample.join('\n')}`);
    });

    // The host may still hold a finished record in memory (its batch waits a few ms for others): a clean stop
    // writes it, then the store is read as it stays.
    await third.stop();
    const observer = await createWeir({ home });
    try {
      if (c.maxPerWorkflow) {
        // Retention keeps the newest `maxPerWorkflow` executions: with no more executions than that, a prune
        // removes none (a final record stored twice must not count twice).
        assert.is(await observer.executions.prune(workflowId), 0, 'a prune capped at the deliveries removes no record: each execution was stored once');
        const gone = (await Promise.all([...answered.keys()].map((x) => observer.executions.get(x).then(() => null, () => x)))).filter((x) => x !== null);
        assert.equal(gone, [], `${gone.length} of ${answered.size} answered executions lost their record to a prune capped at ${c.maxPerWorkflow}`);
      }
      const records = await observer.executions.list({ workflowId, limit: 1_000_000 });
      const runs = new Map<string, number>();
      for (const r of records) runs.set(r.id, (runs.get(r.id) ?? 0) + 1);
      for (const x of answered.keys()) {
        assert.is(runs.get(x), 1, `execution ${x} is listed once`);
        const record = await observer.executions.get(x);
        assert.is(record.status, 'success');
        for (const n of nodes) assert.ok(record.nodes[n.id], `${x}: node ${n.id} has its output`);
        for (const n of effectIds) {
          // The output is the receiver's answer to the key's applied call: the node's effect, applied once.
          assert.equal((record.nodes[n].data as { body: unknown }).body, effects.applied.get(`${x}:${n}`), `${x}:${n} recorded what was applied`);
        }
      }
      for (const [key, times] of effects.arrivals) assert.ok(times <= 3, `${key} arrived ${times} times (a call runs again only after a kill)`);
      return { answered: answered.size, calls: [...effects.arrivals.values()].reduce((a, b) => a + b, 0), repeated: [...effects.arrivals.values()].filter((t) => t > 1).length };
    } finally {
      await observer.close();
    }
  } finally {
    for (const h of hosts) await h.stop('SIGKILL');
    await effects.close();
  }
}
