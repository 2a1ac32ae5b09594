import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { gzipSync } from 'node:zlib';
import { studioBrowser, studioHost } from './_studio.js';

const host = await studioHost();
const ui = await studioBrowser();
test.after(async () => {
  await ui.close();
  await host.close();
});

test('GET /studio/ without the token answers 401 with a page that says how to sign in', async () => {
  const res = await fetch(`${host.url}/studio/`);
  assert.is(res.status, 401);
  assert.match(res.headers.get('content-type')!, 'text/html');
  assert.match(await res.text(), 'weir interface token');
  assert.is((await fetch(`${host.url}/studio/app.js`)).status, 401);
  assert.is((await fetch(`${host.url}/studio/?token=wrong`)).status, 403);
});

test('?token= sets an HttpOnly SameSite=Strict cookie and redirects to the URL without it; the cookie opens the page and the API', async () => {
  const res = await fetch(`${host.url}/studio/?token=${host.token}`, { redirect: 'manual' });
  assert.is(res.status, 303);
  assert.is(res.headers.get('location'), '/studio/');
  const cookie = res.headers.get('set-cookie')!;
  assert.match(cookie, /^weir_token=[^;]+; Path=\/; HttpOnly; SameSite=Strict$/);
  const jar = cookie.split(';')[0];
  const page = await fetch(`${host.url}/studio/`, { headers: { cookie: jar } });
  assert.is(page.status, 200);
  assert.match(await page.text(), '<div id="root">');
  assert.is((await fetch(`${host.url}/api/v1/workflows`, { headers: { cookie: jar } })).status, 200);
});

test('a state-changing API call the cookie authenticates must come from the same origin', async () => {
  const jar = `weir_token=${host.token}`;
  const other = await fetch(`${host.url}/api/v1/workflows/none/publish`, { method: 'POST', headers: { cookie: jar, origin: 'http://evil.example', 'content-type': 'application/json' }, body: '{}' });
  assert.is(other.status, 403);
  assert.match((await other.json()).error.message, 'must come from a page of this host');
  const none = await fetch(`${host.url}/api/v1/workflows/none/publish`, { method: 'POST', headers: { cookie: jar, 'content-type': 'application/json' }, body: '{}' });
  assert.is(none.status, 403);
  const same = await fetch(`${host.url}/api/v1/workflows/none/publish`, { method: 'POST', headers: { cookie: jar, origin: host.url, 'content-type': 'application/json' }, body: '{}' });
  assert.is(same.status, 404, 'past the access check: the flow is unknown');
  const bearer = await fetch(`${host.url}/api/v1/workflows/none/publish`, { method: 'POST', headers: { authorization: `Bearer ${host.token}`, 'content-type': 'application/json' }, body: '{}' });
  assert.is(bearer.status, 404, 'a bearer token needs no origin');
});

test('the first load is under 300 KB of gzipped JavaScript (the scripts and their static imports), served gzipped with a validator', async () => {
  const jar = `weir_token=${host.token}`;
  const html = await (await fetch(`${host.url}/studio/`, { headers: { cookie: jar } })).text();
  const queue = [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]);
  assert.ok(queue.length >= 1);
  const loaded = new Set<string>();
  let gz = 0;
  for (let src = queue.shift(); src !== undefined; src = queue.shift()) {
    const name = src.replace(/^\.\//, '');
    if (loaded.has(name)) continue;
    loaded.add(name);
    const res = await fetch(`${host.url}/studio/${name}`, { headers: { cookie: jar } });
    assert.is(res.status, 200, name);
    const code = Buffer.from(await res.arrayBuffer());
    gz += gzipSync(code).length;
    const again = await fetch(`${host.url}/studio/${name}`, { headers: { cookie: jar, 'if-none-match': res.headers.get('etag')! } });
    assert.is(again.status, 304);
    // app.js keeps its name across builds: checked on each load; a chunk's name is its content's hash: kept.
    assert.is(res.headers.get('cache-control'), name === 'app.js' ? 'no-cache' : 'private, max-age=31536000, immutable', name);
    // Static imports load with the page; `import("./x.js")` (a view opened later) does not.
    for (const m of code.toString().matchAll(/(?:^|[;}\s])import\s*(?:[\w$]+\s*,?\s*)?(?:\{[^}]*\}|\*\s*as\s*[\w$]+)?\s*(?:from)?\s*"(\.\/[^"]+)"/g)) queue.push(m[1]);
  }
  assert.ok(loaded.size > 1, `the entry's chunks are counted: ${[...loaded].join(', ')}`);
  assert.ok(gz < 300 * 1024, `${gz} bytes of gzipped JS`);
  console.log(`  first load: ${loaded.size} scripts, ${Math.round(gz / 1024)} KB gzipped`);
});

test('in Chromium, the sign-in link opens the flow list with no console error', async () => {
  await host.weir.workflows.create('hello', 'says hello');
  const page = await ui.open(host);
  assert.is(new URL(page.url()).search, '', 'the token left the address bar');
  await page.getByRole('link', { name: 'hello' }).waitFor();
  await ui.shot(page, 'serve-flows');
  assert.equal(ui.errors, []);
});

test.run();
