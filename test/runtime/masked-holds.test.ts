// The records stored before a run (queued by a concurrency limit, a pending debounce burst, its debounced
// deliveries) hold the run's input: a secret in it is stored masked, the real input sealed beside it, and
// the run still gets the real input, here and after a restart.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir } from '../../src/weir.js';
import { workflowToRun } from '../../src/flow/run.js';
import { newExecutionId } from '../../src/resources/executions/index.js';
import { tmpDir, until } from '../host/_helpers.js';
import { publishWithSettings, recordingServer } from './_admission.js';

const SECRET = 'hdr-5ecr3t-4b3a2c1d';
const FORMS = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex')];

/** Every file under `dir` that holds the secret in one of {@link FORMS} (a grep of the home). */
function filesHoldingSecret(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesHoldingSecret(path);
    const text = readFileSync(path).toString('latin1');
    return FORMS.some((f) => text.includes(f)) ? [path] : [];
  });
}

/** A webhook input whose header carries the secret, as a caller authenticating with it would send. */
const withSecret = (key: string, n: number) => ({ body: { key, n }, headers: { authorization: `Bearer ${SECRET}` }, query: {}, method: 'POST' });

test('a queued execution is stored masked; its run gets the real input; cancelled, it stays masked', async () => {
  const server = await recordingServer();
  server.state.hold = true;
  const home = tmpDir('weir-masked-queued-');
  const weir = await createWeir({ home, env: {} });
  try {
    await weir.secrets.set('CALLER_TOKEN', SECRET);
    // The header is what the called server gets as `key`: the run must see the real value.
    await publishWithSettings(weir, 'guarded', server.url, { concurrency: { limit: 1 } });
    const first = weir.run('guarded', withSecret('first', 0), { published: true });
    await until(() => server.calls.length === 1, 5000, 'the first run to call');
    const [queuedId, cancelledId] = [newExecutionId(), newExecutionId()];
    const queuedRun = weir.run('guarded', withSecret(SECRET, 1), { published: true, executionId: queuedId });
    const cancelledRun = weir.run('guarded', withSecret(SECRET, 2), { published: true, executionId: cancelledId });
    for (const id of [queuedId, cancelledId]) {
      const queued = await until(async () => {
        const r = await weir.executions.get(id).catch(() => null);
        return r?.status === 'queued' && r;
      }, 5000, `${id} to be stored queued`);
      assert.equal(queued.input, { body: { key: '***', n: id === queuedId ? 1 : 2 }, headers: { authorization: 'Bearer ***' }, query: {}, method: 'POST' });
    }
    assert.equal(filesHoldingSecret(home), [], 'no file under the home holds the secret while they wait');

    const cancelled = await weir.executions.cancel(cancelledId);
    assert.is(cancelled.status, 'cancelled');
    assert.is((await cancelledRun).status, 'cancelled');
    assert.is(((await weir.executions.get(cancelledId)).input as any).headers.authorization, 'Bearer ***');
    // The cancelled record kept its real input sealed: a retry runs it with the real header.
    assert.is((await weir.executions.open.real(await weir.executions.get(cancelledId)) as any).input.headers.authorization, `Bearer ${SECRET}`);

    server.state.hold = false;
    server.release();
    assert.is((await first).status, 'success');
    assert.is((await queuedRun).status, 'success');
    assert.is(server.calls.find((c) => c.n === 1)?.key, SECRET, 'the run after admission got the real input');
    assert.is(server.calls.find((c) => c.n === 2), undefined, 'the cancelled one never ran');
    assert.equal(filesHoldingSecret(home), []);
  } finally {
    server.release();
    await weir.close();
    await server.close();
  }
});

test('a debounced burst, its queued run and debounced deliveries are stored masked; after a restart the run gets the real input', async () => {
  const server = await recordingServer();
  const home = tmpDir('weir-masked-debounce-');
  let weir = await createWeir({ home, env: {} });
  try {
    await weir.secrets.set('CALLER_TOKEN', SECRET);
    await publishWithSettings(weir, 'collapsed', server.url, { debounce: { period: '1s' } });
    const flowRef = await workflowToRun(weir.workflows, 'collapsed', true);
    const delivered = [];
    for (let n = 0; n < 3; n++) delivered.push(await weir.runtime.dispatcher.run({ flow: flowRef, trigger: 'webhook', input: withSecret(SECRET, n) }));
    assert.equal(delivered.map((d) => d.status), ['queued', 'debounced', 'debounced']);
    const runId = delivered[0].id;
    assert.equal(((await weir.executions.get(runId)).input as any).headers, { authorization: 'Bearer ***' });
    assert.equal(((await weir.executions.get(delivered[1].id)).input as any).body, { key: '***', n: 1 });
    assert.equal(filesHoldingSecret(home), [], 'no file under the home holds the secret while the burst is pending');

    // Stopped with the burst pending: the next instance finds it and runs it with the last delivery's real input.
    await weir.close();
    weir = await createWeir({ home, env: {} });
    await weir.runtime.start();
    await until(() => server.calls.length === 1, 10_000, 'the burst to run after the restart');
    assert.equal([server.calls[0].key, server.calls[0].n, server.calls[0].id], [SECRET, 2, runId]);
    const ran = await until(async () => {
      const r = await weir.executions.get(runId).catch(() => null);
      return r?.status === 'success' && r;
    }, 5000, 'the run to be stored');
    assert.equal((ran.input as any).body, { key: '***', n: 2 });
    assert.equal(filesHoldingSecret(home), []);
  } finally {
    await weir.close();
    await server.close();
  }
});

test.run();
