import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { writeJson } from '../_utils.js';
import { assertResponsive, chain, publish, send, startServe, tmpDir } from '../host/_helpers.js';

const CPU_MS = 1000;

test('weir serve: a Code node spinning on $crypto and console fails at its CPU limit while /healthz keeps answering', async () => {
  const home = tmpDir('weir-sandbox-');
  // exposeErrors: the answer carries the recorded error (its SANDBOX_LIMIT code and message).
  writeJson(home, 'weir.config.json', { sandbox: { cpuMs: CPU_MS }, webhook: { exposeErrors: true } });
  const weir = await createWeir({ home });
  const spin = "const s = 'S'.repeat(1e6); for (;;) { $crypto.sha256(s); console.log(s) }";
  // The webhook answers once the flow has ended, with its result or its error.
  const codeFlow = (name: string, code: string) => {
    const { nodes, edges } = chain('webhook_trigger', [{ type: 'code', config: { code } }]);
    return publish(weir, name, { type: 'webhook_trigger', config: { respondImmediately: false } }, nodes, edges);
  };
  const hot = await codeFlow('spin', spin);
  const ok = await codeFlow('ok', 'return { fine: true }');
  await weir.close();
  const s = await startServe(home);
  try {
    assert.equal((await send(`${s.url}/trigger/${ok.token}`)).json, { fine: true }); // the worker thread is up before timing
    const started = Date.now();
    let answered = false;
    const spinning = send(`${s.url}/trigger/${hot.token}`).finally(() => (answered = true));
    const waits: number[] = [];
    while (!answered) {
      const t = Date.now();
      assert.is((await send(`${s.url}/healthz`, { method: 'GET' })).status, 200);
      waits.push(Date.now() - t);
    }
    const answer = await spinning;
    const took = Date.now() - started;
    assert.is(answer.status, 500);
    assert.is(answer.json.error.code, 'SANDBOX_LIMIT', JSON.stringify(answer.json));
    assert.match(answer.json.error.message, `CPU time limit of ${CPU_MS} ms exceeded`);
    assert.ok(took < CPU_MS + 500, `the run took ${took} ms`);
    assert.ok(waits.length >= 5, `only ${waits.length} health checks ran`);
    assertResponsive(waits, CPU_MS);
    // Later runs are clean.
    const after = await send(`${s.url}/trigger/${ok.token}`);
    assert.is(after.status, 200);
    assert.equal(after.json, { fine: true });
  } finally {
    await s.stop();
  }
});

test.run();
