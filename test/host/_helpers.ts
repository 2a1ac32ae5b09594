// Shared setup of the host tests: flows published through the library (fast), hosts served in-process on
// 127.0.0.1 port 0, and a `weir serve` child process where the CLI itself is under test.
import * as assert from 'uvu/assert';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type ServeOptions } from '../../adapters/node-http/index.js';
import type { Clock } from '../../src/triggers/schedule/scheduler.js';
import { createWeir, type Weir } from '../../src/weir.js';
import type { NodeDefinition } from '../../src/nodes/define.js';
import { flow, tmpDir } from '../_utils.js';

export { tmpDir };

/** Creates and publishes a flow; returns its id and webhook token. */
export async function publish(weir: Weir, name: string, trigger: { type: string; config?: Record<string, unknown> }, nodes: any[] = [], edges: any[] = []) {
  const created = await weir.workflows.create(name, undefined, { config: flow(trigger, nodes, edges) as any, publish: true });
  return { id: created.id, token: created.webhookToken };
}

/** A home on disk with what `fn` made through the library in it (closed again, for a `weir serve` child to open). */
export async function homeWith(fn: (weir: Weir) => Promise<void>): Promise<string> {
  const home = tmpDir('weir-serve-');
  const weir = await createWeir({ home });
  try {
    await fn(weir);
  } finally {
    await weir.close();
  }
  return home;
}

/** Nodes chained one after another from the trigger (`<type>-1` ids), for `publish`. */
export function chain(triggerType: string, nodes: Array<{ type: string; config?: Record<string, unknown>; id?: string }>) {
  let prev = `${triggerType}-1`;
  const list = nodes.map((n, i) => ({ id: n.id ?? `${n.type}-${i + 1}`, type: n.type, config: n.config ?? {} }));
  const edges = list.map((n, i) => {
    const e = { id: `e${i + 1}`, source: prev, target: n.id };
    prev = n.id;
    return e;
  });
  return { nodes: list, edges };
}

/** A weir on a fresh home served on 127.0.0.1 (port 0), with node types of the test's own if given. */
export async function startHost({ nodes, ...options }: ServeOptions & { home?: string; config?: Record<string, unknown>; nodes?: NodeDefinition<any>[] } = {}) {
  const home = options.home ?? tmpDir('weir-host-');
  const weir = await createWeir({ home, ...(options.config ? { config: options.config } : {}), ...(nodes ? { nodes } : {}) });
  const serving = await serve(weir, { port: 0, ...options });
  return {
    home,
    weir,
    url: serving.url,
    serving,
    async close() {
      await serving.close();
      await weir.close();
    },
  };
}

/** Polls `probe` until it returns something other than undefined/null/false, or fails after `ms`. */
export async function until<T>(probe: () => Promise<T | null | undefined | false> | T | null | undefined | false, ms = 10_000, what = 'condition'): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== null && v !== undefined && v !== false) return v as T;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}


/** A JSON POST (or any method) with fetch; returns status, headers and the parsed or raw body. */
export async function send(url: string, init: { method?: string; body?: string; headers?: Record<string, string> } = {}) {
  const res = await fetch(url, { method: init.method ?? 'POST', body: init.body, headers: init.headers });
  const text = await res.text();
  let json: any;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, text, json };
}

export { startServe } from '../_utils.js';

/** A clock whose time moves only when told; `timers` counts the timers armed right now. */
export function fakeClock(start: string) {
  let now = Date.parse(start);
  const timers = new Set<{ fn: () => void; at: number }>();
  const clock: Clock & { advance(ms: number): Promise<void>; armed(): number; set(iso: string): void } = {
    now: () => now,
    setTimer(fn, ms) {
      const t = { fn, at: now + ms };
      timers.add(t);
      return t;
    },
    clearTimer: (t) => void timers.delete(t as never),
    armed: () => timers.size,
    set(iso) {
      now = Date.parse(iso);
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        const next = [...timers].sort((a, b) => a.at - b.at)[0];
        if (!next || next.at > end) break;
        timers.delete(next);
        now = Math.max(now, next.at);
        next.fn();
        await new Promise((r) => setImmediate(r));
      }
      now = end;
    },
  };
  return clock;
}

/**
 * Asserts a host stayed responsive while something heavy ran beside it: no probe waited as much as half of
 * `blockedMs`, what a blocked event loop would have cost the probe sent as the heavy work began. How fast
 * the probes answer otherwise is the OS scheduling a busy machine, a figure for a benchmark, not a test.
 */
export function assertResponsive(waits: number[], blockedMs: number, what = '/healthz'): void {
  const slowest = Math.max(...waits);
  assert.ok(slowest < blockedMs / 2, `${what}: the slowest of ${waits.length} probes waited ${slowest} ms, as if blocked for ${blockedMs} ms: ${waits.join(',')}`);
}

/**
 * The test's own HTTP server: counts calls per path; `/slow` never answers (until the server closes);
 * `/flaky` drops the connection while `flaky.fail` is set.
 */
export async function countingServer() {
  const hits: Record<string, number> = {};
  const held: ServerResponse[] = [];
  const flaky = { fail: true };
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url!, 'http://x').pathname;
    hits[path] = (hits[path] ?? 0) + 1;
    if (path === '/slow') return void held.push(res);
    if (path === '/flaky' && flaky.fail) return void req.socket.destroy();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ path }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    hits,
    flaky,
    url: (path: string) => `${base}${path}`,
    close: () => {
      for (const res of held) res.destroy();
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}
