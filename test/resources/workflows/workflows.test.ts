import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, flow, tmpDir, writeJson } from '../../_utils.js';

const created = async (home: string, name: string, extra: string[] = []) => {
  const r = await cli(['f', 'create', name, ...extra, '--json'], { home });
  assert.is(r.code, 0, r.stderr);
  return r.json().id as string;
};
const status = async (home: string, id: string) => (await cli(['f', 'status', id, '--json'], { home })).json().status;

const webhookFlow = (values: Record<string, unknown>) =>
  flow({ type: 'webhook_trigger', config: { respondImmediately: true } }, [{ id: 'set-1', type: 'set', config: { values } }], [
    { id: 'e1', source: 'webhook_trigger-1', target: 'set-1' },
  ]);

test('create prints the id; --json gives {id}; names are unique', async () => {
  const home = tmpDir();
  const text = await cli(['f', 'create', 'orders', 'Order intake'], { home });
  assert.is(text.code, 0);
  const id = /wf_[0-9a-z]+/.exec(text.stdout)?.[0];
  assert.ok(id, text.stdout);
  const got = (await cli(['f', 'get', 'orders', '--json'], { home })).json();
  assert.is(got.id, id);
  assert.is(got.description, 'Order intake');
  assert.equal(got.config.nodes.map((n: any) => n.id), ['manual_trigger-1']);
  const dup = await cli(['f', 'create', 'orders'], { home });
  assert.is(dup.code, 1);
  assert.match(dup.stderr, 'already exists');
});

test('state machine: draft -> synced -> dirty -> synced, save without change stays synced', async () => {
  const home = tmpDir();
  const id = await created(home, 'walk');
  assert.is(await status(home, id), 'draft');
  const cfg1 = writeJson(home, 'v1.json', webhookFlow({ a: 1 }));
  assert.is((await cli(['f', 'save', id, cfg1], { home })).code, 0);
  assert.is(await status(home, id), 'draft', 'save keeps a draft a draft');
  assert.is((await cli(['f', 'publish', id], { home })).code, 0);
  assert.is(await status(home, id), 'synced');
  await cli(['f', 'save', id, cfg1], { home });
  assert.is(await status(home, id), 'synced', 'same config stays synced');
  const cfg2 = writeJson(home, 'v2.json', webhookFlow({ a: 2 }));
  await cli(['f', 'save', id, cfg2], { home });
  assert.is(await status(home, id), 'dirty');
  const list = (await cli(['f', 'list', '--json'], { home })).json();
  assert.equal(list.map((w: any) => [w.name, w.status, w.publishedVersion]), [['walk', 'dirty', 1]]);
  const pub = await cli(['f', 'publish', id, '--json'], { home });
  assert.is(pub.json().version, 2);
  assert.is(await status(home, id), 'synced');
  const created2 = await cli(['f', 'create', 'quick', '--publish', '--json'], { home });
  assert.is(await status(home, created2.json().id), 'synced', 'create --publish');
});

test('conflict: two homes share the cloud mount and keep their own local drafts', async () => {
  const shared = tmpDir('weir-cloud-');
  const [a, b] = [tmpDir(), tmpDir()];
  for (const home of [a, b]) writeJson(home, 'weir.config.json', { storage: { cloud: { driver: 'fs', base: shared } } });
  const id = await created(a, 'shared-flow', ['--publish']);
  assert.is((await cli(['f', 'list', '--json'], { home: b })).json().length, 0, 'b has no local copy yet');
  const synced = await cli(['f', 'sync'], { home: b });
  assert.match(synced.stdout, 'synced 1 workflow');
  assert.is(await status(b, id), 'synced');
  // b edits locally; a publishes a newer version meanwhile.
  await cli(['f', 'save', id, writeJson(b, 'b.json', webhookFlow({ from: 'b' }))], { home: b });
  assert.is(await status(b, id), 'dirty');
  await cli(['f', 'save', id, writeJson(a, 'a.json', webhookFlow({ from: 'a' }))], { home: a });
  assert.is((await cli(['f', 'publish', id], { home: a })).code, 0);
  assert.is(await status(b, id), 'conflict', 'status compares with the cloud as it is now');
  const refused = await cli(['f', 'publish', id], { home: b });
  assert.is(refused.code, 1);
  assert.match(refused.stderr, 'conflict');
  await cli(['f', 'sync'], { home: b });
  assert.is(await status(b, id), 'conflict', 'sync keeps local changes');
  const diff = await cli(['f', 'diff', id], { home: b });
  assert.match(diff.stdout, '~ node set-1: config.values');
  assert.is((await cli(['f', 'publish', id, '--force'], { home: b })).code, 0);
  assert.is(await status(b, id), 'synced');
  assert.is(await status(a, id), 'synced', 'a is unchanged since its base');
  await cli(['f', 'sync'], { home: a });
  const got = (await cli(['f', 'get', id, '--json'], { home: a })).json();
  assert.equal(got.config.nodes[1].config.values, { from: 'b' }, 'sync brought b\'s version to a');
});

test('save lists every problem at once and changes nothing', async () => {
  const home = tmpDir();
  const id = await created(home, 'bad');
  const bad = {
    nodes: [
      { id: 'webhook_trigger-1', type: 'webhook_trigger', config: {} },
      { id: 'schedule_trigger-1', type: 'schedule_trigger', config: { scheduleType: 'daily', dailyTime: '25:00', timezone: 'Mars/Base' } },
      { id: 'set-1', type: 'code', config: {} },
      { id: 'nope', type: 'set', config: {} },
      { id: 'set-2', type: 'set', config: {} },
      { id: 'set-2', type: 'set', config: {} },
      { id: 'teleport-1', type: 'teleport', config: {} },
      { id: 'inbound_call_trigger-1', type: 'inbound_call_trigger', config: {} },
    ],
    edges: [{ id: 'e1', source: 'webhook_trigger-1', target: 'set-9' }],
  };
  const r = await cli(['f', 'save', id, writeJson(home, 'bad.json', bad), '--json'], { home });
  assert.is(r.code, 1);
  const err = JSON.parse(r.stderr).error;
  assert.is(err.code, 'INVALID_CONFIG');
  const messages = err.details.map((p: any) => p.message).join('\n');
  for (const expected of [
    'exactly one trigger node, found 3',
    'must start with its type "code"',
    'node id "nope" must be of the form <type>-<number>',
    'duplicate node id "set-2"',
    'unknown node type "teleport"',
    'names a missing node "set-9"',
    '"phoneNumberId" is required',
    '"agentId" is required',
    'HH:MM',
    'unknown time zone',
  ]) assert.match(messages, expected);
  const text = await cli(['f', 'save', id, join(home, 'bad.json')], { home });
  assert.match(text.stderr, /^error: invalid workflow config \(\d+ problems\):\n  - /);
  const got = (await cli(['f', 'get', id, '--json'], { home })).json();
  assert.equal(got.config.nodes.map((n: any) => n.id), ['manual_trigger-1'], 'nothing was saved');
});

test('schedule fields: impossible values are refused, valid ones accepted', async () => {
  const home = tmpDir();
  const id = await created(home, 'sched');
  const save = (config: Record<string, unknown>) =>
    cli(['f', 'save', id, writeJson(home, 's.json', flow({ type: 'schedule_trigger', config }))], { home });
  const refused: [Record<string, unknown>, string][] = [
    [{ scheduleType: 'cron', cronExpression: '* * * *' }, '5 fields'],
    [{ scheduleType: 'cron', cronExpression: '61 * * * *' }, 'out of range'],
    [{ scheduleType: 'weekly', weeklyDay: 7, dailyTime: '09:00' }, 'weeklyDay'],
    [{ scheduleType: 'interval', intervalValue: 5, intervalUnit: 'weeks' }, 'intervalUnit'],
    [{ scheduleType: 'hourly' }, 'scheduleType'],
    [{ scheduleType: 'daily', dailyTime: '09:00', timezone: 'Nowhere/City' }, 'unknown time zone'],
  ];
  for (const [config, message] of refused) {
    const r = await save(config);
    assert.is(r.code, 1, JSON.stringify(config));
    assert.match(r.stderr, message);
  }
  for (const config of [
    { scheduleType: 'cron', cronExpression: '*/15 9-17 * * mon-fri' },
    { scheduleType: 'daily', dailyTime: '09:00', timezone: 'America/New_York' },
    { scheduleType: 'weekly', weeklyDay: 0, dailyTime: '23:59' },
    { scheduleType: 'interval', intervalValue: 2, intervalUnit: 'hours' },
  ]) {
    const r = await save(config);
    assert.is(r.code, 0, `${JSON.stringify(config)}: ${r.stderr}`);
  }
});

test('save refuses a missing file and malformed JSON clearly', async () => {
  const home = tmpDir();
  const id = await created(home, 'files');
  const missing = await cli(['f', 'save', id, 'nope.json'], { home });
  assert.is(missing.code, 1);
  assert.match(missing.stderr, 'file not found: nope.json');
  writeFileSync(join(home, 'broken.json'), '{"nodes": [');
  const broken = await cli(['f', 'save', id, 'broken.json'], { home });
  assert.is(broken.code, 1);
  assert.match(broken.stderr, 'broken.json is not valid JSON');
});

test('diff shows nodes, edges and variables; delete and delete --unpublish', async () => {
  const home = tmpDir();
  const id = await created(home, 'd', ['--publish']);
  const next = webhookFlow({ x: 1 });
  (next as any).variables = { region: 'eu' };
  await cli(['f', 'save', id, writeJson(home, 'n.json', next)], { home });
  const d = await cli(['f', 'diff', id], { home });
  for (const line of ['+ node webhook_trigger-1 (webhook_trigger)', '+ node set-1 (set)', '- node manual_trigger-1 (manual_trigger)', '+ edge webhook_trigger-1 -> set-1', '+ variable region = "eu"']) {
    assert.match(d.stdout, line);
  }
  const dj = (await cli(['f', 'diff', id, '--json'], { home })).json();
  assert.ok(dj.changes.some((c: any) => c.kind === 'edge' && c.op === 'added'));

  assert.is((await cli(['f', 'delete', id], { home })).code, 0);
  assert.is((await cli(['f', 'get', id], { home })).code, 1);
  await cli(['f', 'sync'], { home });
  assert.is((await cli(['f', 'status', id, '--json'], { home })).json().status, 'synced', 'sync brings a published workflow back');
  assert.is((await cli(['f', 'delete', 'd', '--unpublish'], { home })).code, 0);
  await cli(['f', 'sync'], { home });
  assert.is((await cli(['f', 'list', '--json'], { home })).json().length, 0);
});

test.run();
