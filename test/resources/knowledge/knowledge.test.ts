import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startServe } from '../interfaces/_helpers.js';
import { fails, failsJson, home, ok } from '../_helpers.js';

function docs(dir: string) {
  mkdirSync(join(dir, 'docs'));
  const files: Record<string, string> = {
    'refunds.md': '# Refund policy\n\nCustomers get a full refund within **30 days** of delivery.',
    'shipping.html': '<html><head><style>.x{color:red}</style><script>trackVisitor()</script></head><body><h1>Shipping</h1><p>Delivery is free above 50&nbsp;euros.</p></body></html>',
    'faq.json': JSON.stringify({ faq: [{ question: 'How long is the warranty?', answer: 'Two years on every appliance.' }] }),
    'notes.txt': 'Internal note: the Lisbon warehouse closes in August.',
    'logo.png': '\x89PNG binary',
  };
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, 'docs', name), body);
  return files;
}

test('folders nest through a parent; documents upload into folders; list shows both', async () => {
  const { dir, weir } = home();
  docs(dir);
  const policies = ok(await weir('kb', 'folders', 'create', 'policies', '--json')).json();
  const returns = ok(await weir('knowledge', 'folders', 'create', 'returns', policies.id, '--json')).json();
  assert.equal([returns.name, returns.parentId], ['returns', policies.id]);
  fails(await weir('kb', 'folders', 'create', 'returns', 'policies'), 'a folder named "returns" already exists');
  fails(await weir('kb', 'folders', 'create', 'x', 'fld_nothere'), 'folder "fld_nothere" not found');
  const doc = ok(await weir('kb', 'upload', 'docs/refunds.md', returns.id, '--json')).json();
  assert.equal([doc.name, doc.folderId, doc.contentType], ['refunds.md', returns.id, 'text/markdown; charset=utf-8']);
  ok(await weir('kb', 'upload', 'docs/logo.png'));
  const list = ok(await weir('kb', 'list', '--json')).json();
  assert.equal(list.map((r: any) => [r.kind, r.name, r.folder]), [
    ['folder', 'policies', null],
    ['folder', 'returns', policies.id],
    ['document', 'logo.png', null],
    ['document', 'refunds.md', returns.id],
  ]);
  assert.match(ok(await weir('kb', 'list')).stdout, /KIND\s+ID\s+NAME\s+FOLDER\s+CONTENTTYPE\s+SIZE\nfolder/);
  assert.equal(ok(await weir('kb', 'folders', 'list', '--json')).json().map((f: any) => f.name), ['policies', 'returns']);
  fails(await weir('kb', 'upload', 'docs/none.md'), 'file not found: docs/none.md');
});

test('get shows metadata and the text of text documents; binary documents have no content', async () => {
  const { dir, weir } = home();
  const files = docs(dir);
  const md = ok(await weir('kb', 'upload', 'docs/refunds.md', '--json')).json();
  const png = ok(await weir('kb', 'upload', 'docs/logo.png', '--json')).json();
  const got = ok(await weir('kb', 'get', md.id, '--json')).json();
  assert.equal([got.id, got.name, got.size, got.content], [md.id, 'refunds.md', Buffer.byteLength(files['refunds.md']), files['refunds.md']]);
  const text = ok(await weir('kb', 'get', 'refunds.md')).stdout;
  assert.match(text, /contentType:\s+text\/markdown/);
  assert.match(text, '**30 days**');
  assert.is(ok(await weir('kb', 'get', png.id, '--json')).json().content, undefined);
  failsJson(await weir('kb', 'get', 'doc_nothere', '--json'), 'NOT_FOUND');
  failsJson(await weir('kb', 'url', 'doc_nothere', '--json'), 'NOT_FOUND');
});

test('search finds words in text, markdown, HTML (without tags or scripts) and JSON documents', async () => {
  const { dir, weir } = home();
  docs(dir);
  const folder = ok(await weir('kb', 'folders', 'create', 'ops', '--json')).json();
  const uploads = await Promise.all([...['refunds.md', 'shipping.html', 'faq.json', 'logo.png'].map((f) => weir('kb', 'upload', `docs/${f}`)), weir('kb', 'upload', 'docs/notes.txt', 'ops')]);
  uploads.forEach((r) => ok(r));
  const names = async (...q: string[]) => ok(await weir('kb', 'search', ...q, '--json')).json().map((h: any) => h.name);
  const [refund, free, warranty, lisbon, script, style] = await Promise.all([
    names('refund'), names('delivery', 'free'), names('warranty'), names('lisbon', 'warehouse'), names('trackVisitor'), names('color'),
  ]);
  assert.equal(refund, ['refunds.md']);
  assert.equal(free, ['shipping.html']);
  assert.equal(warranty, ['faq.json']);
  assert.equal(lisbon, ['notes.txt']);
  assert.equal(script, []);
  assert.equal(style, []);
  const hits = ok(await weir('kb', 'search', 'delivery', '--json')).json();
  assert.equal(hits.map((h: any) => h.name).sort(), ['refunds.md', 'shipping.html']);
  assert.ok(hits.every((h: any) => h.score > 0 && /delivery/i.test(h.snippet)));
  assert.equal(ok(await weir('kb', 'search', 'delivery', '--folder', folder.id, '--json')).json(), []);
  assert.equal(ok(await weir('kb', 'search', 'delivery', '-n', '1', '--json')).json().length, 1);
  assert.match(ok(await weir('kb', 'search', 'refnd')).stdout, /SCORE\s+ID\s+NAME\s+SNIPPET\n[\d.]+\s+doc_\w+\s+refunds\.md/);
  assert.match(ok(await weir('kb', 'search', 'zebra')).stdout, 'no documents match "zebra"');
  // Deleted documents leave the index.
  ok(await weir('kb', 'delete', 'faq.json'));
  assert.equal(await names('warranty'), []);
});

test('deleting a non-empty folder is refused unless --recursive, which removes everything below it', async () => {
  const { dir, weir } = home();
  docs(dir);
  ok(await weir('kb', 'folders', 'create', 'top'));
  ok(await weir('kb', 'folders', 'create', 'mid', 'top'));
  for (const r of await Promise.all([weir('kb', 'folders', 'create', 'empty'), weir('kb', 'upload', 'docs/notes.txt', 'mid'), weir('kb', 'upload', 'docs/refunds.md')])) ok(r);
  const r = fails(await weir('kb', 'folders', 'delete', 'top'), 'folder "top" is not empty (1 document(s), 1 folder(s))');
  assert.match(r.stderr, 'pass --recursive');
  failsJson(await weir('kb', 'folders', 'delete', 'top', '--json'), 'CONFLICT');
  ok(await weir('kb', 'folders', 'delete', 'empty'));
  assert.match(ok(await weir('kb', 'folders', 'delete', 'top', '--recursive')).stdout, 'deleted folder top with 1 document(s) and 1 folder(s)');
  assert.equal(ok(await weir('kb', 'list', '--json')).json().map((x: any) => x.name), ['refunds.md']);
  assert.equal(ok(await weir('kb', 'search', 'lisbon', '--json')).json(), []);
});

test('url gives an unguessable public URL that weir serve answers with the content; delete makes it 404', async () => {
  const { dir, weir } = home();
  const files = docs(dir);
  const doc = ok(await weir('kb', 'upload', 'docs/shipping.html', '--json')).json();
  const offline = ok(await weir('kb', 'url', doc.id)).stdout.trim();
  assert.match(offline, /^http:\/\/127\.0\.0\.1:8787\/kb\/[A-Za-z0-9_-]{32}$/);
  const served = await startServe(dir);
  try {
    const url = ok(await weir('kb', 'url', doc.id, '--json')).json().url;
    assert.ok(url.startsWith(`${served.url}/kb/`), url);
    assert.is(url.split('/kb/')[1], offline.split('/kb/')[1]);
    const res = await fetch(url);
    assert.is(res.status, 200);
    assert.is(res.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.is(res.headers.get('content-security-policy'), 'sandbox');
    assert.is(await res.text(), files['shipping.html']);
    assert.is((await fetch(`${served.url}/kb/${'A'.repeat(32)}`)).status, 404);
    ok(await weir('kb', 'delete', doc.id));
    assert.is((await fetch(url)).status, 404);
  } finally {
    await served.stop();
  }
  writeFileSync(join(dir, 'weir.config.json'), JSON.stringify({ publicUrl: 'https://kb.example.com/' }));
  const up = ok(await weir('kb', 'upload', 'docs/notes.txt', '--json')).json();
  assert.match(ok(await weir('kb', 'url', up.id)).stdout, /^https:\/\/kb\.example\.com\/kb\/[\w-]{32}\n$/);
});

test.run();
