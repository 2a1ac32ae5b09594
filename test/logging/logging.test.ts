import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createLogger } from '../../src/logging/logger.js';
import { createWeir, type Weir } from '../../src/weir.js';
import { cli } from '../_utils.js';
import { chain, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';

/** A home with one published webhook flow: a Code node logs, then a kv_get node fails (no such namespace). */
async function failingHome(): Promise<{ home: string; token: string }> {
  const home = tmpDir('weir-logging-');
  const weir: Weir = await createWeir({ home });
  const c = chain('webhook_trigger', [
    { type: 'code', config: { code: 'console.log("ticking", $input.body.n); return 1' } },
    { type: 'kv_get', config: { namespace: 'ticks', key: 'last' } },
  ]);
  const { token } = await publish(weir, 'tick-counter', { type: 'webhook_trigger', config: { respondImmediately: true } }, c.nodes, c.edges);
  await weir.close();
  return { home, token: token! };
}

test('weir serve logs a failing execution as one text line with the flow, the node and the error', async () => {
  const { home, token } = await failingHome();
  const s = await startServe(home);
  try {
    assert.is((await send(`${s.url}/trigger/${token}`, { body: '{"n":7}', headers: { 'content-type': 'application/json' } })).status, 200);
    const line = await until(() => s.output().split('\n').find((l) => l.includes('execution error')), 10_000, 'the error line');
    assert.match(line, /^\d\d:\d\d:\d\d\.\d{3} ERROR execution error /);
    assert.match(line, ' flow=tick-counter ');
    assert.match(line, ' node=kv_get-2 ');
    assert.match(line, ' trigger=webhook ');
    assert.match(line, / exec=exec_\w+ /);
    assert.match(line, 'error="KV namespace \\"ticks\\" not found"');
    // Node log lines are debug lines: at the default level only the error shows.
    assert.not.match(s.output(), 'ticking');
  } finally {
    await s.stop();
  }
  assert.match(s.output(), / INFO  stopped\n$/);
});

test('weir serve --log-format json writes pino JSON lines; --log-level debug adds the Code node\'s console lines', async () => {
  const { home, token } = await failingHome();
  const s = await startServe(home, ['--log-format', 'json', '--log-level', 'debug']);
  try {
    const ready = JSON.parse(s.output().split('\n')[0]);
    assert.is(ready.url, s.url);
    await send(`${s.url}/trigger/${token}`, { body: '{"n":7}', headers: { 'content-type': 'application/json' } });
    await send(`${s.url}/healthz`, { method: 'GET' });
    const entry = await until(() => s.output().split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.msg === 'execution error'), 10_000, 'the error line');
    assert.is(entry.level, 'error');
    assert.is(entry.flow, 'tick-counter');
    assert.is(entry.node, 'kv_get-2');
    assert.is(entry.error, 'KV namespace "ticks" not found');
    assert.is(entry.trigger, 'webhook');
    assert.is(typeof entry.ms, 'number');
    assert.ok(!Number.isNaN(Date.parse(entry.time)));
    const nodeLog = s.output().split('\n').slice(1).filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.msg === 'node log');
    assert.equal([nodeLog?.level, nodeLog?.node, nodeLog?.logLevel, nodeLog?.text, nodeLog?.exec], ['debug', 'code-1', 'log', 'ticking 7', entry.exec]);
  } finally {
    await s.stop();
  }
  const lines = s.output().trim().split('\n').slice(1).map((l) => JSON.parse(l));
  assert.ok(lines.some((e) => e.msg === 'stopped' && e.level === 'info'));
});

test('weir serve rejects an unknown --log-level or --log-format', async () => {
  const home = tmpDir('weir-logging-');
  const level = await cli(['serve', '--port', '0', '--log-level', 'loud'], { home });
  assert.is(level.code, 2, level.stderr);
  assert.match(level.stderr, '--log-level must be one of trace, debug, info, warn, error, silent, got "loud"');
  const format = await cli(['serve', '--port', '0', '--log-format', 'xml'], { home });
  assert.is(format.code, 2, format.stderr);
  assert.match(format.stderr, '--log-format must be text or json, got "xml"');
});

test('createWeir({ logger }) logs a failing scheduled run with its flow, node and error', async () => {
  const lines: string[] = [];
  const logger = createLogger({ level: 'info', format: 'text', stream: { write: (line: string) => lines.push(line) } });
  const weir = await createWeir({ logger });
  const c = chain('schedule_trigger', [{ type: 'kv_set', config: { namespace: 'ticks', key: 'last', value: 'x' } }]);
  const { id } = await publish(weir, 'nightly ticks', { type: 'schedule_trigger', config: { scheduleType: 'daily', dailyTime: '03:00' } }, c.nodes, c.edges);
  const r = await weir.run(id, {}, { published: true, trigger: 'schedule' });
  assert.is(r.status, 'error');
  assert.is(lines.length, 1, lines.join(''));
  assert.match(lines[0], / ERROR execution error flow="nightly ticks" flowId=wf_\w+ exec=exec_\w+ trigger=schedule node=kv_set-1 code=NOT_FOUND error="KV namespace \\"ticks\\" not found" \d+ms\n$/);
  await weir.close();
});

test.run();
