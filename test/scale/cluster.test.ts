// Three `weir serve` processes (A and B `--role all`, C `--role worker`) sharing Redis (storage, queue,
// schedules, publish events) and PostgreSQL (tables). The schedule check spans two real minutes; the other
// checks run inside that window.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir, type Weir } from '../../src/index.js';
import { flow, writeJson } from '../_utils.js';
import { clusterConfig, clusterHome, dropRedisPrefix, dropSchema, MASTER_KEY, PG_URL, publishFlow, startHost, uniqueName, until, weirCli, type RunningHost } from './_scale.js';

const prefix = uniqueName('cluster');
const spec = { prefix, schema: prefix, queue: { concurrency: 16, stalledMs: 4000 } };
const homes = { a: clusterHome(spec), b: clusterHome(spec), c: clusterHome(spec), observer: clusterHome(spec) };
const hosts: Record<string, RunningHost> = {};
let observer: Weir;
let ready = 0;
const ids: Record<string, { id: string; token: string }> = {};

const edge = (source: string, target: string) => ({ id: `e-${target}`, source, target });
const webhook = (respondImmediately: boolean, node: Record<string, unknown>) =>
  flow({ type: 'webhook_trigger', config: { respondImmediately } }, [node], [edge('webhook_trigger-1', node.id as string)]);
const iface = (params: string[], node: Record<string, unknown>) =>
  flow({ type: 'interface_event_trigger', config: { inputParams: params.map((name) => ({ name, type: 'string', required: true })) } }, [node], [edge('interface_event_trigger-1', node.id as string)]);

async function sql<T = any>(text: string, values: unknown[] = []): Promise<T[]> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
const count = async (table: string) => Number((await sql(`SELECT count(*) AS n FROM ${prefix}."${table}"`))[0].n);

/** POSTs one JSON body per item, alternating between the URLs, `parallel` at a time. */
async function deliver(urls: string[], token: string, items: number[], parallel = 48, onAnswer?: (done: number) => void) {
  const answers: Array<{ status: number; body: any }> = new Array(items.length);
  let next = 0;
  let done = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      const res = await fetch(`${urls[i % urls.length]}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ n: items[i] }) });
      answers[i] = { status: res.status, body: await res.json() };
      onAnswer?.(++done);
    }
  };
  await Promise.all(Array.from({ length: parallel }, lane));
  return answers;
}

const range = (from: number, n: number) => Array.from({ length: n }, (_, i) => from + i);

test.before(async () => {
  observer = await createWeir({ home: homes.observer, config: clusterConfig(spec), env: { WEIR_MASTER_KEY: MASTER_KEY } });
  const schema = (extra: string[]) => ({ columns: [{ name: 'id', type: 'TEXT', primaryKey: true }, ...extra.map((name) => ({ name, type: 'TEXT' }))] });
  await observer.tables.init('user.deliveries', undefined, schema(['host']));
  await observer.tables.init('user.ticks', undefined, schema(['host']));
  await observer.tables.init('user.shared', undefined, schema(['text']));
  await observer.kv.init('survivors');
  const flows: Record<string, unknown> = {
    deliveries: webhook(true, { id: 'table_insert-1', type: 'table_insert', config: { table: 'user.deliveries', row: { id: '{{ body.n }}', host: '{{ $env.WEIR_HOST_TAG }}' } } }),
    survivors: flow(
      { type: 'webhook_trigger', config: { respondImmediately: true } },
      [
        { id: 'delay-1', type: 'delay', config: { ms: 100 } },
        { id: 'kv_set-1', type: 'kv_set', config: { namespace: 'survivors', key: '{{ body.n }}', value: '{{ $env.WEIR_HOST_TAG }}' } },
      ],
      [edge('webhook_trigger-1', 'delay-1'), edge('delay-1', 'kv_set-1')],
    ),
    answer: webhook(false, { id: 'respond-1', type: 'respond', config: { status: 201, body: { n: '{{ body.n }}', host: '{{ $env.WEIR_HOST_TAG }}' } } }),
    ticker: flow(
      { type: 'schedule_trigger', config: { scheduleType: 'cron', cronExpression: '* * * * *', timezone: 'UTC' } },
      [{ id: 'table_insert-1', type: 'table_insert', config: { table: 'user.ticks', row: { id: '{{ $input.triggeredAt }}', host: '{{ $env.WEIR_HOST_TAG }}' } } }],
      [edge('schedule_trigger-1', 'table_insert-1')],
    ),
    writer: iface(['id', 'text'], { id: 'table_insert-1', type: 'table_insert', config: { table: 'user.shared', row: { id: '{{ $input.id }}', text: '{{ $input.text }}' } } }),
    reader: iface(['id'], { id: 'table_query-1', type: 'table_query', config: { table: 'user.shared', sql: 'SELECT id, text FROM "user.shared" WHERE id = ?', params: ['{{ $input.id }}'] } }),
  };
  for (const [name, config] of Object.entries(flows)) {
    const { id, webhookToken } = await observer.workflows.create(name, undefined, { config: config as never });
    await observer.workflows.publish(id);
    ids[name] = { id, token: webhookToken };
  }
  ids.live = await publishFlow(homes.a, 'live', webhook(false, { id: 'respond-1', type: 'respond', config: { status: 200, body: { v: 1 } } }));
  ids.captured = await publishFlow(homes.a, 'captured', webhook(false, { id: 'respond-1', type: 'respond', config: { status: 200, body: { ran: true } } }));
  [hosts.a, hosts.b, hosts.c] = await Promise.all([
    startHost(homes.a, ['--port', '0'], 'A'),
    startHost(homes.b, ['--port', '0'], 'B'),
    startHost(homes.c, ['--role', 'worker'], 'C'),
  ]);
  ready = Date.now();
});

test.after(async () => {
  await Promise.all(Object.values(hosts).map((h) => h.stop('SIGKILL')));
  await observer?.close();
  await dropSchema(prefix);
  await dropRedisPrefix(prefix);
});

test('a worker-only host opens no port; intake hosts answer /healthz', async () => {
  assert.is(hosts.c.url, null);
  assert.match(hosts.c.output(), 'worker ready');
  for (const h of [hosts.a, hosts.b]) assert.is((await fetch(`${h.url}/healthz`)).status, 200);
});

test('a table written through host A is read through host B', async () => {
  const post = (url: string, name: string, input: unknown) =>
    fetch(`${url}/api/flows/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(input) }).then(async (r) => ({ status: r.status, body: await r.json() }));
  const wrote = await post(hosts.a.url!, 'writer', { id: 'k1', text: 'written on A' });
  assert.is(wrote.status, 200, JSON.stringify(wrote.body));
  const read = await post(hosts.b.url!, 'reader', { id: 'k1' });
  assert.equal(read, { status: 200, body: { result: [{ id: 'k1', text: 'written on A' }] } });
});

test('a publish on host A is live on host B within a second, and so is an unpublish', async () => {
  const url = `${hosts.b.url}/trigger/${ids.live.token}`;
  assert.equal(await (await fetch(url, { method: 'POST' })).json(), { v: 1 });
  const file = writeJson(homes.a, 'live-v2.json', webhook(false, { id: 'respond-1', type: 'respond', config: { status: 200, body: { v: 2 } } }));
  assert.is((await weirCli(homes.a, ['workflows', 'save', ids.live.id, file])).code, 0);
  const published = await weirCli(homes.a, ['workflows', 'publish', ids.live.id]);
  assert.is(published.code, 0, published.stderr);
  const t = Date.now();
  await until('v2 on host B', async () => (await (await fetch(url, { method: 'POST' })).json()).v === 2, 1000, 20);
  const unpublished = await weirCli(homes.a, ['workflows', 'delete', ids.live.id, '--unpublish']);
  assert.is(unpublished.code, 0, unpublished.stderr);
  const u = Date.now();
  await until('404 on host B', async () => (await fetch(url, { method: 'POST' })).status === 404, 1000, 20);
  assert.ok(Date.now() - t < 3000 && Date.now() - u < 1000);
});

test('a capture session started from the CLI on home A catches host B\'s next request within a second', async () => {
  const url = `${hosts.b.url}/trigger/${ids.captured.token}`;
  const send = async () => (await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"probe":1}' })).json();
  assert.equal(await send(), { ran: true }); // host B has the flow cached now
  const listening = await weirCli(homes.a, ['workflows', 'webhook-listen', ids.captured.id]);
  assert.is(listening.code, 0, listening.stderr);
  const t = Date.now();
  await until('the capture on host B', async () => (await send()).captured === true, 1000, 20);
  assert.ok(Date.now() - t < 1000);
  const declined = await weirCli(homes.a, ['workflows', 'webhook-decline', ids.captured.id]);
  assert.is(declined.code, 0, declined.stderr);
  await until('the flow running again on host B', async () => (await send()).ran === true, 1000, 20);
});

test('Respond answers reach the caller from whichever worker ran the flow', async () => {
  const answers = await deliver([hosts.a.url!, hosts.b.url!], ids.answer.token, range(0, 300), 24);
  assert.ok(answers.every((a, i) => a.status === 201 && a.body.n === i), JSON.stringify(answers.find((a, i) => a.status !== 201 || a.body.n !== i)));
  const ranOn = new Set(answers.map((a) => a.body.host));
  assert.equal([...ranOn].sort(), ['A', 'B', 'C'], 'each of the three workers answered some');
});

test('2,000 webhook deliveries over two intake hosts are each executed exactly once', async () => {
  const answers = await deliver([hosts.a.url!, hosts.b.url!], ids.deliveries.token, range(0, 2000));
  assert.ok(answers.every((a) => a.status === 200 && typeof a.body.executionId === 'string'));
  const given = new Set(answers.map((a) => a.body.executionId));
  assert.is(given.size, 2000);
  await until('2,000 rows', async () => (await count('user.deliveries')) === 2000, 60000, 250);
  const records = await until('2,000 finished executions', async () => {
    const list = await observer.executions.list({ workflowId: ids.deliveries.id, limit: 5000 });
    return list.filter((r) => r.status !== 'running' && r.status !== 'queued').length === 2000 && list;
  }, 30000, 500);
  assert.is(records.length, 2000, 'one record per delivery');
  assert.ok(records.every((r) => r.status === 'success'), JSON.stringify(records.find((r) => r.status !== 'success')?.error));
  assert.ok(records.every((r) => given.has(r.id)));
  // The status key lives in Redis: a status URL host A gave is answered by host B as well.
  const fromA = answers.find((a) => a.body.statusUrl.startsWith(`${hosts.a.url}/executions/`))!;
  const polled = await fetch(fromA.body.statusUrl.replace(hosts.a.url!, hosts.b.url!));
  assert.equal(await polled.json(), { executionId: fromA.body.executionId, status: 'success', result: records.find((r) => r.id === fromA.body.executionId)!.result });
  // A second run of any delivery would have hit the primary key and left an error record.
  const byHost = await sql(`SELECT host, count(*) AS n FROM ${prefix}."user.deliveries" GROUP BY host ORDER BY host`);
  assert.equal(byHost.map((r) => r.host), ['A', 'B', 'C']);
});

test('a worker killed with SIGKILL mid-load loses nothing', async () => {
  let killed: Promise<unknown> | null = null;
  const answers = await deliver([hosts.a.url!, hosts.b.url!], ids.survivors.token, range(0, 600), 48, (done) => {
    if (done === 150) killed = hosts.c.stop('SIGKILL');
  });
  assert.ok(killed, 'the worker was killed during the load');
  await killed;
  assert.ok(answers.every((a) => a.status === 200));
  const keys = await until('600 KV keys', async () => ((await observer.kv.keys('survivors')).length === 600 ? observer.kv.keys('survivors') : null), 60000, 250);
  assert.equal(keys.map(Number).sort((x, y) => x - y), range(0, 600));
  const records = await observer.executions.list({ workflowId: ids.survivors.id, limit: 5000 });
  assert.is(records.length, 600);
  assert.ok(records.every((r) => r.status === 'success'));
  hosts.c = await startHost(homes.c, ['--role', 'worker'], 'C2');
});

test('a "* * * * *" schedule fires once per minute across the three hosts for two minutes, a host dying between', async () => {
  const first = Math.ceil((ready + 1000) / 60000) * 60000;
  const slots = [first, first + 60000].map((t) => new Date(t).toISOString());
  const ticks = async () => (await observer.executions.list({ workflowId: ids.ticker.id, limit: 100 })).filter((r) => r.status === 'success');
  await until('the first slot', async () => (await ticks()).some((r) => (r.input as any).triggeredAt === slots[0]), first + 30000 - Date.now(), 500);
  await hosts.a.stop('SIGKILL');
  await until('the second slot', async () => (await ticks()).some((r) => (r.input as any).triggeredAt === slots[1]), first + 90000 - Date.now(), 500);
  await new Promise((r) => setTimeout(r, 3000)); // a second run of the slot, were there one, would show by now
  const all = await observer.executions.list({ workflowId: ids.ticker.id, limit: 100 });
  const perSlot = new Map<string, number>();
  for (const r of all) perSlot.set((r.input as any).triggeredAt, (perSlot.get((r.input as any).triggeredAt) ?? 0) + 1);
  for (const slot of slots) assert.is(perSlot.get(slot), 1, `slot ${slot} ran once`);
  assert.ok([...perSlot.values()].every((n) => n === 1), JSON.stringify([...perSlot]));
  assert.ok(all.every((r) => r.status === 'success'), JSON.stringify(all.map((r) => r.error)));
  const rows = await sql(`SELECT id FROM ${prefix}."user.ticks" WHERE id = ANY($1)`, [slots]);
  assert.is(rows.length, 2);
});

test('intake and worker hosts stop cleanly on SIGTERM', async () => {
  assert.is(await hosts.b.stop('SIGTERM'), 0);
  assert.is(await hosts.c.stop('SIGTERM'), 0);
});

test.run();
