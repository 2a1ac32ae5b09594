import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { createWeir } from '../../../src/weir.js';
import { newExecutionId } from '../../../src/resources/executions/index.js';
import { cli, startServe, tmpDir } from '../../_utils.js';
import { chain, publish, until } from '../../host/_helpers.js';

// What resume and retry need of a run whose node returned a secret is kept sealed with the home's master
// key; what is shown (the CLI, the records) is masked; no file under the home holds the value meanwhile.

const SECRET = 'tok-5ecr3t-9f8e7d6c';
/** The value and the encodings a careless store could hold it in. */
const FORMS = [SECRET, Buffer.from(SECRET).toString('base64'), Buffer.from(SECRET).toString('hex')];

/** Every file under `dir` that holds one of {@link FORMS} (a grep of the home). */
function filesHoldingSecret(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) out.push(...filesHoldingSecret(path));
    else {
      const text = readFileSync(path).toString('latin1');
      if (FORMS.some((f) => text.includes(f))) out.push(path);
    }
  }
  return out;
}

/**
 * A server of the test's own that records the Authorization header of every call. `/flaky` drops the
 * first connection (the node calling it fails), `/hang` answers nothing the first time (the host is killed
 * meanwhile); every other call gets 200.
 */
async function receiver() {
  const calls: Array<{ path: string; auth: string | undefined }> = [];
  const seen = new Map<string, number>();
  const server = createServer((req: IncomingMessage, res) => {
    const path = req.url!.split('?')[0];
    calls.push({ path, auth: req.headers.authorization });
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    if (path === '/flaky' && n === 1) return void req.socket.destroy();
    if (path === '/hang' && n === 1) return;
    res.setHeader('content-type', 'application/json');
    res.end('{"ok":true}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    authsOf: (path: string) => calls.filter((c) => c.path === path).map((c) => c.auth),
    close: () => new Promise<void>((r) => (server.closeAllConnections(), server.close(() => r()))),
  };
}

/** A home holding the secret, with a flow whose first node returns it and whose later nodes use it. */
async function homeWithFlow(trigger: string, nodes: Array<{ type: string; id: string; config: Record<string, unknown> }>) {
  const home = tmpDir('weir-sealed-');
  const weir = await createWeir({ home });
  try {
    await weir.secrets.set('API_TOKEN', SECRET);
    const c = chain(trigger, [{ type: 'set', id: 'set-1', config: { values: { token: '{{ $env.API_TOKEN }}', resume: '{{ $execution.resumeUrl }}' } } }, ...nodes]);
    const { id, token } = await publish(weir, 'sealed', { type: trigger }, c.nodes, c.edges);
    return { home, id, token };
  } finally {
    await weir.close();
  }
}

const bearer = (node: string) => ({ authorization: `Bearer {{ $node.${node}.data.token }}` });

test('retry: the failed node gets the real secret a finished node returned; the records show it masked', async () => {
  const server = await receiver();
  try {
    const { home, id } = await homeWithFlow('manual_trigger', [{ type: 'http_request', id: 'http_request-2', config: { method: 'POST', url: `${server.url}/flaky`, headers: bearer('set-1') } }]);
    const failed = await cli(['workflows', 'run', id, '--published', '--json'], { home });
    const failedId = failed.json().id ?? failed.json().executionId;
    const shownFailed = (await cli(['workflows', 'execution', failedId, '--json'], { home })).json();
    assert.is(shownFailed.status, 'error', failed.stdout + failed.stderr);
    assert.equal(filesHoldingSecret(home), [], 'the failed record keeps the secret sealed');
    assert.is(shownFailed.nodes['set-1'].data.token, '***');
    assert.not.ok('sealed' in shownFailed, 'the sealed part is not shown');

    const retried = await cli(['workflows', 'retry', failedId, '--json'], { home });
    assert.is(retried.code, 0, retried.stdout + retried.stderr);
    assert.equal(server.authsOf('/flaky'), [`Bearer ${SECRET}`, `Bearer ${SECRET}`], 'the retry sends the real value, not ***');
    const shown = (await cli(['workflows', 'execution', retried.json().id, '--json'], { home })).json();
    assert.is(shown.status, 'success');
    assert.is(shown.retryOf, failedId);
    assert.is(shown.nodes['set-1'].data.token, '***');
    assert.equal(filesHoldingSecret(home), []);
  } finally {
    await server.close();
  }
});

test('a waiting execution: no file under the home holds the secret; resumed, the next node gets the real value', async () => {
  const server = await receiver();
  const { home, id } = await homeWithFlow('manual_trigger', [
    { type: 'wait', id: 'wait-2', config: { webhook: true, timeout: '1h' } },
    { type: 'http_request', id: 'http_request-3', config: { method: 'POST', url: `${server.url}/after`, headers: bearer('set-1') } },
  ]);
  const host = await startServe(home);
  try {
    const run = await cli(['workflows', 'run', id, '--published', '--json'], { home });
    const executionId = run.json().executionId;
    const waiting = (await cli(['workflows', 'execution', executionId, '--json'], { home })).json();
    assert.is(waiting.status, 'waiting', run.stdout + run.stderr);
    assert.is(waiting.nodes['set-1'].data.token, '***', 'shown masked while it waits');
    assert.equal(filesHoldingSecret(home), [], 'no file under the home holds the secret while it waits');

    const resumePath = new URL(waiting.nodes['set-1'].data.resume).pathname;
    const res = await fetch(`${host.url}${resumePath}`, { method: 'POST' });
    assert.is(res.status, 202);
    const done = await until(async () => {
      const r = (await cli(['workflows', 'execution', executionId, '--json'], { home })).json();
      return r.status === 'success' && r;
    }, 15000, 'the resumed execution to end');
    assert.equal(server.authsOf('/after'), [`Bearer ${SECRET}`], 'the node after the wait gets the real value');
    assert.is(done.nodes['set-1'].data.token, '***');
    assert.equal(filesHoldingSecret(home), []);
  } finally {
    await host.stop();
    await server.close();
  }
});

test('kill -9 mid-flow: nothing on disk holds the secret; the resumed node gets the real value', async () => {
  const server = await receiver();
  const { home, token } = await homeWithFlow('webhook_trigger', [
    { type: 'http_request', id: 'http_request-2', config: { method: 'POST', url: `${server.url}/first`, headers: bearer('set-1') } },
    { type: 'http_request', id: 'http_request-3', config: { method: 'POST', url: `${server.url}/hang`, headers: bearer('set-1'), timeoutMs: 60000 } },
  ]);
  const first = await startServe(home);
  const res = await fetch(`${first.url}/trigger/${token}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"order":7}' });
  const { executionId } = await res.json();
  await until(() => server.authsOf('/hang').length === 1, 10000, 'the third node to call');
  await first.stop('SIGKILL');
  assert.equal(filesHoldingSecret(home), [], 'the checkpoint of the killed run holds no secret');

  const second = await startServe(home);
  try {
    const record = await until(async () => {
      const r = (await cli(['workflows', 'execution', executionId, '--json'], { home })).json();
      return r.status === 'success' && r;
    }, 20000, 'the execution to resume and end');
    assert.equal(server.authsOf('/first'), [`Bearer ${SECRET}`], 'the node before the crash ran once');
    assert.equal(server.authsOf('/hang'), [`Bearer ${SECRET}`, `Bearer ${SECRET}`], 'the resumed node gets the real value');
    assert.is(record.attempts, 2);
    assert.is(record.nodes['set-1'].data.token, '***');
  } finally {
    await second.stop();
    await server.close();
  }
});

test('a plain checkpoint stored by an older weir still resumes with its real data, and is stored masked from then on', async () => {
  const server = await receiver();
  const { home, id } = await homeWithFlow('manual_trigger', [{ type: 'http_request', id: 'http_request-2', config: { method: 'POST', url: `${server.url}/flaky`, headers: bearer('set-1') } }]);
  const weir = await createWeir({ home });
  try {
    // A failed run stores the config it ran; its real record is the model of the older weir's checkpoint.
    const failed = await weir.run(id, {}, { published: true });
    assert.is(failed.status, 'error');
    const real = await weir.executions.open.real(await weir.executions.get(failed.id));
    const { 'http_request-2': _cut, ...done } = real.nodes;
    const old = { ...real, id: newExecutionId(), status: 'running', error: undefined, finishedAt: null, nodes: done };
    const dead = { host: hostname(), pid: 2 ** 22 + 1, boot: 'older' };
    await weir.storage.view('cloud', 'executions').setItem(`open:${old.id}`, JSON.stringify({ owner: dead, record: old }));
    assert.equal(filesHoldingSecret(home).length, 1, 'the older checkpoint holds the secret as it was');

    assert.is(await weir.runtime.resumer.scan(), 1);
    const resumed = await until(async () => {
      const r = await weir.executions.get(old.id);
      return r.status === 'success' && r;
    }, 10000, 'the older checkpoint to resume');
    assert.equal(server.authsOf('/flaky'), [`Bearer ${SECRET}`, `Bearer ${SECRET}`], 'resumed with the real value');
    assert.is((resumed.nodes['set-1'].data as { token: string }).token, '***');
    assert.equal(filesHoldingSecret(home), [], 'the ended execution left nothing plain');
  } finally {
    await weir.close();
    await server.close();
  }
});

test.run();
