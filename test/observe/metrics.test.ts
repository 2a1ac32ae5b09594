// GET /metrics on a real host over loopback: executions that succeed, fail and wait, webhook answers of
// several statuses, scraped and read with a Prometheus text-format parser; the token, `public`, the cap on
// workflow labels, two instances in one process, and `enabled: false`.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import parse, { type Family, type Sample } from 'parse-prometheus-text-format';
import { isoMsBetween } from '../../src/observe/iso-time.js';
import { writeJson } from '../_utils.js';
import { chain, publish, send, startHost, tmpDir, until } from '../host/_helpers.js';
import type { Weir } from '../../src/weir.js';

const JSON_TYPE = { 'content-type': 'application/json' };

interface Scrape {
  /** Families as the parser reads them (a histogram's label sets folded into one sample). */
  typed: Map<string, Family>;
  /** The text with histograms untyped: `_bucket`, `_sum` and `_count` each a family, every sample with its labels. */
  flat: Map<string, Family>;
}

async function scrape(url: string, token?: string): Promise<Scrape> {
  const res = await fetch(`${url}/metrics`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  assert.is(res.status, 200);
  assert.match(res.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  // Untyped, a histogram's series come as runs of `_bucket`, `_sum`, `_count` lines: the runs of a name join.
  const byName = (families: Family[]) => {
    const map = new Map<string, Family>();
    for (const f of families) {
      const seen = map.get(f.name);
      if (seen) seen.metrics.push(...f.metrics);
      else map.set(f.name, f);
    }
    return map;
  };
  return { typed: byName(parse(text)), flat: byName(parse(text.replace(/^# TYPE \S+ histogram\n/gm, ''))) };
}

/** The sample of a family whose labels include `labels`. */
const sample = (m: Scrape, name: string, labels: Record<string, string> = {}): Sample | undefined =>
  m.flat.get(name)?.metrics.find((s) => Object.entries(labels).every(([k, v]) => s.labels?.[k] === v));
const value = (m: Scrape, name: string, labels?: Record<string, string>) => Number(sample(m, name, labels)?.value);
/** A histogram's count of observations. */
const count = (m: Scrape, name: string, labels?: Record<string, string>) => value(m, `${name}_count`, labels);
/** How many series a family has. */
const series = (m: Scrape, name: string) => m.flat.get(name)?.metrics.length ?? 0;

/** Resolves once `n` executions have ended (a waiting one counts as ended here). */
const ends = (weir: Weir, n: number) =>
  new Promise<void>((resolve) => {
    let seen = 0;
    weir.bus.on('execution:end', () => ++seen === n && resolve());
  });

test('executions, node and answer timings, webhook codes and gauges match what ran; 401 and 403 without the token', async () => {
  const host = await startHost();
  const { weir, url } = host;
  try {
    const ok = chain('webhook_trigger', [{ type: 'set', config: { values: { n: '{{ body.n }}' } } }, { type: 'respond', config: { status: 201, body: { ok: true } } }]);
    const okFlow = await publish(weir, 'orders', { type: 'webhook_trigger', config: { respondImmediately: false } }, ok.nodes, ok.edges);
    const bad = chain('webhook_trigger', [{ type: 'code', config: { code: 'throw new Error("boom")' } }]);
    const badFlow = await publish(weir, 'broken', { type: 'webhook_trigger', config: { respondImmediately: false } }, bad.nodes, bad.edges);
    const wait = chain('webhook_trigger', [{ type: 'wait', config: { for: '1h' } }]);
    const waitFlow = await publish(weir, 'later', { type: 'webhook_trigger', config: { respondImmediately: true } }, wait.nodes, wait.edges);
    const ended = ends(weir, 6);
    const post = (token: string, body = '{"n":1}') => send(`${url}/trigger/${token}`, { body, headers: JSON_TYPE });
    for (let i = 0; i < 3; i++) assert.is((await post(okFlow.token!)).status, 201);
    for (let i = 0; i < 2; i++) assert.is((await post(badFlow.token!)).status, 500);
    assert.is((await post(waitFlow.token!)).status, 200);
    assert.is((await post('no-such-token')).status, 404);
    assert.is((await post(okFlow.token!, '{"n":')).status, 400);
    await ended;
    const token = await weir.interfaces.accessToken();
    await until(async () => value(await scrape(url, token), 'weir_executions_waiting') === 1, 5000, 'the wait in the wake index');
    await until(async () => value(await scrape(url, token), 'weir_intake_backlog') === 0, 5000, 'the delivery to finish');
    const m = await scrape(url, token);

    assert.is(value(m, 'weir_executions_total', { workflow: 'orders', status: 'success' }), 3);
    assert.is(value(m, 'weir_executions_total', { workflow: 'broken', status: 'error' }), 2);
    assert.is(sample(m, 'weir_executions_total', { workflow: 'later' }), undefined, 'a waiting execution has not ended');
    assert.is(series(m, 'weir_executions_total'), 2);
    assert.is(count(m, 'weir_execution_duration_seconds', { workflow: 'orders' }), 3);
    assert.is(count(m, 'weir_execution_duration_seconds', { workflow: 'broken' }), 2);
    assert.is(value(m, 'weir_execution_duration_seconds_bucket', { workflow: 'orders', le: '+Inf' }), 3);
    assert.is(value(m, 'weir_execution_duration_seconds_bucket', { workflow: 'orders', le: '300' }), 3, 'buckets are cumulative');
    assert.is(series(m, 'weir_execution_duration_seconds_bucket'), 2 * 16, 'two workflows, 15 bounds and +Inf');
    assert.is(count(m, 'weir_node_duration_seconds', { type: 'respond' }), 3);
    assert.is(count(m, 'weir_node_duration_seconds', { type: 'set' }), 3);
    assert.is(count(m, 'weir_node_duration_seconds', { type: 'code' }), 2);
    assert.is(count(m, 'weir_node_duration_seconds', { type: 'webhook_trigger' }), 6);
    assert.is(sample(m, 'weir_node_duration_seconds', { type: 'wait' }), undefined, 'a node still waiting has not finished');

    assert.is(value(m, 'weir_webhook_requests_total', { code: '201' }), 3);
    assert.is(value(m, 'weir_webhook_requests_total', { code: '500' }), 2);
    assert.is(value(m, 'weir_webhook_requests_total', { code: '200' }), 1);
    assert.is(value(m, 'weir_webhook_requests_total', { code: '404' }), 1);
    assert.is(value(m, 'weir_webhook_requests_total', { code: '400' }), 1);
    assert.is(count(m, 'weir_webhook_duration_seconds'), 8);
    assert.is(m.typed.get('weir_webhook_duration_seconds')?.type, 'HISTOGRAM');
    assert.is(m.typed.get('weir_executions_total')?.type, 'COUNTER');
    assert.is(m.typed.get('weir_intake_backlog')?.type, 'GAUGE');

    assert.is(value(m, 'weir_executions_queued'), 0);
    assert.is(value(m, 'weir_executions_running'), 0);
    assert.ok(value(m, 'weir_sandbox_workers') >= 1, 'the Code node started a worker');
    assert.is(value(m, 'weir_sandbox_workers_busy'), 0);
    assert.is(value(m, 'weir_sandbox_jobs_queued'), 0);
    assert.ok(value(m, 'process_cpu_user_seconds_total') > 0, 'default process metrics');
    assert.ok(value(m, 'nodejs_heap_size_used_bytes') > 0);

    const anonymous = await fetch(`${url}/metrics`);
    assert.is(anonymous.status, 401);
    assert.is((await anonymous.json()).error.code, 'UNAUTHORIZED');
    const wrong = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer not-the-token' } });
    assert.is(wrong.status, 403);
  } finally {
    await host.close();
  }
});

test('metrics.public answers without a token; past maxWorkflows flows share "_other"; two instances count apart', async () => {
  const capped = await startHost({ config: { metrics: { public: true, maxWorkflows: 2 } } });
  const other = await startHost({ config: { metrics: { public: true } } });
  try {
    const names = ['a', 'b', 'c', 'd', 'e'];
    for (const name of names) await publish(capped.weir, name, { type: 'manual_trigger' });
    for (const name of names) await capped.weir.run(name, {}, { published: true });
    await capped.weir.run('e', {}, { published: true });
    const m = await scrape(capped.url);
    assert.equal(m.flat.get('weir_executions_total')!.metrics.map((s) => [s.labels!.workflow, Number(s.value)]), [['a', 1], ['b', 1], ['_other', 4]]);
    assert.is(count(m, 'weir_execution_duration_seconds', { workflow: '_other' }), 4);
    assert.is(series(m, 'weir_execution_duration_seconds_count'), 3);
    const apart = await scrape(other.url);
    assert.is(series(apart, 'weir_executions_total'), 0, 'the other instance counted nothing');
  } finally {
    await capped.close();
    await other.close();
  }
});

test('metrics.enabled false: GET /metrics answers 404 and nothing is counted', async () => {
  const home = tmpDir('weir-metrics-');
  writeJson(home, 'weir.config.json', { metrics: { enabled: false } });
  const host = await startHost({ home });
  try {
    assert.is(host.weir.metrics, null);
    assert.is(host.weir.bus.all.get('webhook:answer')?.length ?? 0, 0, 'webhook answers are not timed');
    const token = await host.weir.interfaces.accessToken();
    const res = await fetch(`${host.url}/metrics`, { headers: { authorization: `Bearer ${token}` } });
    assert.is(res.status, 404);
  } finally {
    await host.close();
  }
});

test('isoMsBetween reads two times of one day digit by digit, and any others through Date.parse', () => {
  assert.is(isoMsBetween('2026-11-28T04:22:05.123Z', '2026-11-28T04:22:06.001Z'), 878);
  assert.is(isoMsBetween('2026-11-28T23:59:59.900Z', '2026-11-29T00:00:00.100Z'), 200);
  assert.is(isoMsBetween('2026-11-28T00:00:00.000Z', '2026-11-28T23:59:59.999Z'), 86_399_999);
});

test.run();
