import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { WeirError } from '../../src/errors.js';
import { createHandler } from '../../src/host/handle.js';
import { compileRoutes } from '../../src/host/router.js';
import type { HostRequest, Route } from '../../src/host/types.js';
import { createWeir } from '../../src/weir.js';

const ok = (name: string): Route['handle'] => async (_req, params) => ({ status: 200, body: { name, params } });

const routes: Route[] = [
  { methods: ['GET'], path: '/healthz', handle: ok('health') },
  { path: '/trigger/:token', handle: ok('trigger') },
  { methods: ['POST'], path: '/api/flows/:ref', handle: ok('flows') },
  { methods: ['GET'], path: '/i/:name/*', handle: ok('files') },
  { methods: ['GET'], path: '/:any/static', handle: ok('dynamic-head') },
];

test('static, :param and trailing * patterns; methods; HEAD answered by GET routes', () => {
  const router = compileRoutes(routes);
  const m = (method: string, path: string) => {
    const found = router.match(method, path);
    return found && { name: (found.route as any).path, params: found.params };
  };
  assert.equal(m('GET', '/healthz'), { name: '/healthz', params: {} });
  assert.equal(m('HEAD', '/healthz'), { name: '/healthz', params: {} });
  assert.is(m('POST', '/healthz'), null);
  assert.equal(m('DELETE', '/trigger/abc'), { name: '/trigger/:token', params: { token: 'abc' } });
  assert.is(m('POST', '/trigger/abc/extra'), null);
  assert.equal(m('POST', '/api/flows/my%20flow'), { name: '/api/flows/:ref', params: { ref: 'my flow' } });
  assert.is(m('GET', '/api/flows/x'), null);
  assert.equal(m('GET', '/i/shop/assets/app.js'), { name: '/i/:name/*', params: { name: 'shop', '*': 'assets/app.js' } });
  assert.equal(m('GET', '/i/shop'), { name: '/i/:name/*', params: { name: 'shop', '*': '' } });
  assert.equal(m('GET', '/x/static'), { name: '/:any/static', params: { any: 'x' } });
  assert.is(m('GET', '/nowhere'), null);
});

test('one error mapper: unknown paths 404 JSON, WeirErrors keep status and code, anything else is a bare 500', async () => {
  const reported: unknown[] = [];
  const handle = createHandler(
    [
      { path: '/weir-error', handle: async () => { throw new WeirError('FORBIDDEN', 'no entry', { details: ['a'] }); } },
      { path: '/crash', handle: async () => { throw new Error('ENOENT: open /srv/secret/path with sk_live_123'); } },
    ],
    { onError: (err) => reported.push(err) },
  );
  const req = (path: string): HostRequest => ({ method: 'GET', path, query: {}, headers: {}, rawBody: Buffer.alloc(0) });
  assert.equal(await handle(req('/nope')), { status: 404, body: { error: { code: 'NOT_FOUND', message: 'not found' } } });
  assert.equal(await handle(req('/weir-error')), { status: 403, body: { error: { code: 'FORBIDDEN', message: 'no entry', details: ['a'] } } });
  const crash = await handle(req('/crash'));
  assert.equal(crash, { status: 500, body: { error: { code: 'INTERNAL', message: 'internal error' } } });
  assert.is(reported.length, 1, 'the real error goes to onError, not to the caller');
  assert.is(handle.owns('GET', '/crash'), true);
  assert.is(handle.owns('GET', '/elsewhere'), false);
});

test.run();
