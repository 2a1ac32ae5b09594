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
  // Each `weir` is a process start: the commands that do not depend on one another run at once.
  const [taken, noParent, uploaded, logo] = await Promise.all([
    weir('kb', 'folders', 'create', 'returns', 'policies'),
    weir('kb', 'folders', 'create', 'x', 'fld_nothere'),
    weir('kb', 'upload', 'docs/refunds.md', returns.id, '--json'),
    weir('kb', 'upload', 'docs/logo.png'),
  ]);
  fails(taken, 'a folder named "returns" already exists');
  fails(noParent, 'folder "fld_nothere" not found');
  const doc = ok(uploaded).json();
  assert.equal([doc.name, doc.folderId, doc.contentType], ['refunds.md', returns.id, 'text/markdown; charset=utf-8']);
  ok(logo);
  const [listed, table, folders, none] = await Promise.all([weir('kb', 'list', '--json'), weir('kb', 'list'), weir('kb', 'folders', 'list', '--json'), weir('kb', 'upload', 'docs/none.md')]);
  const list = ok(listed).json();
  assert.equal(list.map((r: any) => [r.kind, r.name, r.folder]), [
    ['folder', 'policies', null],
    ['folder', 'returns', policies.id],
    ['document', 'logo.png', null],
    ['document', 'refunds.md', returns.id],
  ]);
  assert.match(ok(table).stdout, /KIND\s+ID\s+NAME\s+FOLDER\s+CONTENTTYPE\s+SIZE\nfolder/);
  assert.equal(ok(folders).json().map((f: any) => f.name), ['policies', 'returns']);
  fails(none, 'file not found: docs/none.md');
});

test('get shows metadata and the text of text documents; binary documents have no content', async () => {
  const { dir, weir } = home();
  const files = docs(dir);
  const [mdUpload, pngUpload] = await Promise.all([weir('kb', 'upload', 'docs/refunds.md', '--json'), weir('kb', 'upload', 'docs/logo.png', '--json')]);
  const md = ok(mdUpload).json();
  const png = ok(pngUpload).json();
  // Reads only: at once.
  const [mdGot, mdText, pngGot, noDoc, noUrl] = await Promise.all([
    weir('kb', 'get', md.id, '--json'),
    weir('kb', 'get', 'refunds.md'),
    weir('kb', 'get', png.id, '--json'),
    weir('kb', 'get', 'doc_nothere', '--json'),
    weir('kb', 'url', 'doc_nothere', '--json'),
  ]);
  const got = ok(mdGot).json();
  assert.equal([got.id, got.name, got.size, got.content], [md.id, 'refunds.md', Buffer.byteLength(files['refunds.md']), files['refunds.md']]);
  const text = ok(mdText).stdout;
  assert.match(text, /contentType:\s+text\/markdown/);
  assert.match(text, '**30 days**');
  assert.is(ok(pngGot).json().content, undefined);
  failsJson(noDoc, 'NOT_FOUND');
  failsJson(noUrl, 'NOT_FOUND');
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
  const [delivery, inFolder, first, typo, zebra] = await Promise.all([
    weir('kb', 'search', 'delivery', '--json'),
    weir('kb', 'search', 'delivery', '--folder', folder.id, '--json'),
    weir('kb', 'search', 'delivery', '-n', '1', '--json'),
    weir('kb', 'search', 'refnd'),
    weir('kb', 'search', 'zebra'),
  ]);
  const hits = ok(delivery).json();
  assert.equal(hits.map((h: any) => h.name).sort(), ['refunds.md', 'shipping.html']);
  assert.ok(hits.every((h: any) => h.score > 0 && /delivery/i.test(h.snippet)));
  assert.equal(ok(inFolder).json(), []);
  assert.equal(ok(first).json().length, 1);
  assert.match(ok(typo).stdout, /SCORE\s+ID\s+NAME\s+SNIPPET\n[\d.]+\s+doc_\w+\s+refunds\.md/);
  assert.match(ok(zebra).stdout, 'no documents match "zebra"');
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
  // The refused deletes of `top` and the delete of `empty` (beside it, not below) at once.
  const [refused, refusedJson, emptyDeleted] = await Promise.all([weir('kb', 'folders', 'delete', 'top'), weir('kb', 'folders', 'delete', 'top', '--json'), weir('kb', 'folders', 'delete', 'empty')]);
  const r = fails(refused, 'folder "top" is not empty (1 document(s), 1 folder(s))');
  assert.match(r.stderr, 'pass --recursive');
  failsJson(refusedJson, 'CONFLICT');
  ok(emptyDeleted);
  assert.match(ok(await weir('kb', 'folders', 'delete', 'top', '--recursive')).stdout, 'deleted folder top with 1 document(s) and 1 folder(s)');
  const [left, lisbon] = await Promise.all([weir('kb', 'list', '--json'), weir('kb', 'search', 'lisbon', '--json')]);
  assert.equal(ok(left).json().map((x: any) => x.name), ['refunds.md']);
  assert.equal(ok(lisbon).json(), []);
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
