// Shared setup of the admission tests (settings.concurrency, settings.rateLimit): the test's own HTTP server
// that records when each call began and ended, and flows published with settings.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as assert from 'uvu/assert';
import type { Weir } from '../../src/weir.js';
import { flow } from '../_utils.js';

/** One call the server saw: the `key` and `n` of its JSON body, when it came and when it was answered. */
export interface Call {
  key: string;
  n: number;
  id: string;
  start: number;
  end?: number;
}

/**
 * The test's own server: records every call; answers each after `holdMs`, or, while `hold` is set, keeps it
 * until `release()`.
 */
export async function recordingServer(holdMs = 0) {
  const calls: Call[] = [];
  const held: Array<{ call: Call; res: ServerResponse }> = [];
  const state = { hold: false, holdMs };
  const answer = (call: Call, res: ServerResponse) => {
    call.end = Date.now();
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const { key, n, id } = JSON.parse(body) as { key: string; n: number; id: string };
      const call: Call = { key, n: Number(n), id, start: Date.now() };
      calls.push(call);
      if (state.hold) return void held.push({ call, res });
      setTimeout(() => answer(call, res), state.holdMs);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    calls,
    state,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/call`,
    /** Answers the calls held so far (their callers may be gone). */
    release() {
      for (const { call, res } of held.splice(0)) answer(call, res);
    },
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** Publishes webhook -> http_request(POST {key, n, id} to `url`) [-> more nodes] with `settings`. */
export async function publishWithSettings(weir: Weir, name: string, url: string, settings: Record<string, unknown>, options: { trigger?: Record<string, unknown>; after?: any[] } = {}) {
  const nodes = [
    { id: 'http_request-1', type: 'http_request', config: { method: 'POST', url, body: { key: '{{ $input.body.key }}', n: '{{ $input.body.n }}', id: '{{ $execution.id }}' } } },
    ...(options.after ?? []),
  ];
  const ids = ['webhook_trigger-1', ...nodes.map((n) => n.id)];
  const edges = ids.slice(1).map((target, i) => ({ id: `e${i + 1}`, source: ids[i], target }));
  const config = { ...flow({ type: 'webhook_trigger', config: options.trigger ?? {} }, nodes, edges), settings };
  const created = await weir.workflows.create(name, undefined, { config: config as any, publish: true });
  return { id: created.id, token: created.webhookToken! };
}

/** The most calls of one key that overlapped in time (a call's end to another's start). */
export function maxOverlap(calls: Call[]): number {
  const edges = calls.flatMap((c) => [
    { at: c.start, d: 1 },
    { at: c.end ?? Infinity, d: -1 },
  ]);
  // An end at the same instant as a start frees the place first.
  edges.sort((a, b) => a.at - b.at || a.d - b.d);
  let now = 0;
  let most = 0;
  for (const e of edges) most = Math.max(most, (now += e.d));
  return most;
}

/** The calls grouped by key. */
export function byKey(calls: Call[]): Map<string, Call[]> {
  const out = new Map<string, Call[]>();
  for (const c of calls) out.set(c.key, [...(out.get(c.key) ?? []), c]);
  return out;
}

/**
 * The calls with `start` moved to when their execution started the call (its `http_request-1` node's start,
 * as `weir workflows execution` shows it): the order admission decides. The way to the server adds delays of
 * its own that admission does not decide (a loopback connect retried after 1 s was seen in CI).
 */
export async function startedCalls(weir: Pick<Weir, 'executions'>, calls: Call[]): Promise<Call[]> {
  return Promise.all(
    calls.map(async (call) => {
      const node = (await weir.executions.get(call.id)).nodes['http_request-1'];
      assert.ok(node?.startedAt, `${call.id} (n ${call.n}) records when its call started`);
      return { ...call, start: Date.parse(node.startedAt) };
    }),
  );
}

/**
 * The calls that reached the server more than `slackMs` after one that arrived later (a larger `n`), as
 * readable pairs: executions let go at the same moment race each other to the server, so arrival order is
 * only visible at a coarser grain than a millisecond.
 */
export function outOfOrder(calls: Call[], slackMs: number): string[] {
  const byN = [...calls].sort((a, b) => a.n - b.n);
  return byN.flatMap((a, i) => byN.slice(i + 1).filter((b) => a.start > b.start + slackMs).map((b) => `${a.n} at ${a.start} after ${b.n} at ${b.start}`));
}
