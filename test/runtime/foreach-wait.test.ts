// A foreach whose sub-flows wait on their resume URLs keeps its parent waiting (stored, nothing held), across a
// kill -9 of `weir serve`; each call to a resume URL ends its child, and the parent ends with the children's
// final results in item order.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import type { ExecutionRecord } from '../../src/flow/types.js';
import { chain, publish, send, startServe, tmpDir, until } from '../host/_helpers.js';

/** The test's own server: the sub-flows post `{index, url}` (their resume URL) to it before they wait. */
async function urlServer() {
  const urls = new Map<number, string>();
  let posts = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      posts++;
      const { index, url } = JSON.parse(body) as { index: number; url: string };
      urls.set(index, url);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    urls,
    posts: () => posts,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A resume URL pointed at the running host (the port changes with each start). */
const at = (host: { url: string }, url: string) => host.url + url.slice(url.indexOf('/resume/'));

test('sub-flows that wait keep the foreach parent waiting across a kill -9; their resumes finish it, results in item order', async () => {
  const hooks = await urlServer();
  const home = tmpDir('weir-foreach-wait-');
  const setup = await createWeir({ home });
  const sub = chain('manual_trigger', [
    { type: 'http_request', id: 'http_request-1', config: { method: 'POST', url: `${hooks.base}/url`, body: { index: '{{ $input.index }}', url: '{{ $execution.resumeUrl }}' } } },
    { type: 'wait', id: 'wait-1', config: { webhook: true } },
    { type: 'set', id: 'set-1', config: { values: { item: '{{ $input.item }}', answer: '{{ $node["wait-1"].data.body.answer }}' } } },
  ]);
  await publish(setup, 'ask-item', { type: 'manual_trigger' }, sub.nodes, sub.edges);
  const loop = chain('webhook_trigger', [{ type: 'foreach', id: 'foreach-1', config: { items: '{{ $input.body.items }}', flow: 'ask-item' } }]);
  const { token } = await publish(setup, 'ask-all', { type: 'webhook_trigger', config: { respondImmediately: true } }, loop.nodes, loop.edges);
  await setup.close();
  let host = await startServe(home, ['--quiet']);
  const weir = await createWeir({ home });
  const read = (id: string) => weir.executions.get(id).catch(() => null) as Promise<ExecutionRecord | null>;
  try {
    const started = await send(`${host.url}/trigger/${token}`, { body: JSON.stringify({ items: ['a', 'b', 'c'] }), headers: { 'content-type': 'application/json' } });
    assert.ok(started.status < 300, JSON.stringify(started.json));
    const parentId = started.json.executionId as string;
    // Parallelism 1: each item's run got to its wait before the next one started, and the parent then waits.
    const waiting = await until(async () => {
      const r = await read(parentId);
      return r?.status === 'waiting' && r;
    }, 20_000, 'the parent to wait');
    assert.is(hooks.urls.size, 3, 'all three sub-flows reached their wait');
    assert.is(waiting.nodes['foreach-1'].status, 'waiting');
    assert.is(waiting.children!.length, 3);
    const children = await Promise.all(waiting.children!.map((c) => read(c.executionId)));
    assert.equal(children.map((c) => [c?.status, c?.parentExecutionId]), [['waiting', parentId], ['waiting', parentId], ['waiting', parentId]]);

    // The first child is resumed before the kill: the parent runs on, and waits again for the other two.
    const first = await send(at(host, hooks.urls.get(0)!), { body: JSON.stringify({ answer: 'A' }), headers: { 'content-type': 'application/json' } });
    assert.is(first.status, 202);
    await until(async () => (await read(waiting.children![0].executionId))?.status === 'success', 20_000, 'the first child to end');
    await until(async () => {
      const r = await read(parentId);
      const wait = r?.nodes['foreach-1'].wait;
      return r?.status === 'waiting' && r.resumedAt && wait?.kind === 'children' && wait.executionIds.length === 2 && r;
    }, 20_000, 'the woken parent to wait again for the other two');

    await host.stop('SIGKILL');
    host = await startServe(home, ['--quiet']);
    assert.is((await read(parentId))?.status, 'waiting', 'still waiting after the restart');
    for (const [index, answer] of [[2, 'C'], [1, 'B']] as const) {
      const resumed = await send(at(host, hooks.urls.get(index)!), { body: JSON.stringify({ answer }), headers: { 'content-type': 'application/json' } });
      assert.is(resumed.status, 202, `resume of item ${index}`);
    }
    const done = await until(async () => {
      const r = await read(parentId);
      return r && r.status !== 'waiting' && r.status !== 'running' && r;
    }, 30_000, 'the parent to end');
    assert.is(done.status, 'success', JSON.stringify(done.error));
    assert.equal(done.result, [{ item: 'a', answer: 'A' }, { item: 'b', answer: 'B' }, { item: 'c', answer: 'C' }], 'final results in item order');
    assert.is(hooks.posts(), 3, 'no sub-flow ran its first node twice');
    assert.equal(done.children!.map((c) => c.executionId), waiting.children!.map((c) => c.executionId), 'the same three children, none started again');
  } finally {
    await host.stop();
    await weir.close();
    await hooks.close();
  }
});

test.run();
