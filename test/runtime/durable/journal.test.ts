import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { appendFileSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDeliveries, type Delivery } from '../../../src/runtime/durable/deliveries.js';
import { createDeliveryQueue } from '../../../src/runtime/durable/delivery-queue.js';
import { createJournal } from '../../../src/runtime/durable/journal.js';
import { decodeBody } from '../../../src/host/request-body.js';
import type { DecodedBody } from '../../../src/types/trigger.js';
import { WebhookInput } from '../../../src/triggers/webhook/input.js';
import { tmpDir, until } from '../../host/_helpers.js';

/** The accepted answer a replayed idempotency key gives again (the webhook trigger's 200). */
const acceptedAnswer = (executionId: string, statusUrl: string) => ({ status: 200, body: { executionId, statusUrl } });
const segments = (dir: string) => readdirSync(dir).filter((f) => f.endsWith('.log')).sort();

test('group commit: concurrent appends share flushes and each resolves with where its record lies', async () => {
  const dir = tmpDir('weir-journal-');
  const journal = createJournal({ dir, live: () => [] });
  assert.equal(await journal.open(), []);
  const positions = await Promise.all(Array.from({ length: 200 }, (_, i) => journal.append({ k: 'd', id: `ex_${i}`, in: { n: i, text: 'ünïcode' } })));
  const [file] = segments(dir);
  const data = readFileSync(join(dir, file));
  // Fewer flushes than records: every batch starts with a newline of its own.
  const batches = data.toString('utf8').split('\n\n').length;
  assert.ok(batches < 200, `${batches} batches for 200 records`);
  for (const [i, pos] of positions.entries()) {
    assert.equal(JSON.parse(data.toString('utf8', pos.offset, pos.offset + pos.length)), { k: 'd', id: `ex_${i}`, in: { n: i, text: 'ünïcode' } });
    assert.equal((await journal.read(pos)).in, { n: i, text: 'ünïcode' });
  }
  await journal.close();
});

test('compaction: a closed segment goes once nothing pins it; live records move into the new one', async () => {
  const dir = tmpDir('weir-journal-');
  const journal = createJournal({ dir, live: () => [{ k: 'a', key: 'kept' }] });
  await journal.open();
  const a = await journal.append({ k: 'd', id: 'one' }, { pin: true });
  await journal.append({ k: 'd', id: 'two' });
  await journal.rotate();
  assert.is(segments(dir).length, 2, 'the first segment is pinned by "one"');
  journal.unpin(a.segment);
  await new Promise((r) => setTimeout(r, 20));
  assert.is(segments(dir).length, 1);
  assert.match(readFileSync(join(dir, segments(dir)[0]), 'utf8'), '"key":"kept"');
  await journal.close();
});

test('a dead owner\'s segments are adopted at open; a torn last line is skipped', async () => {
  const dir = tmpDir('weir-journal-');
  const first = createJournal({ dir, live: () => [] });
  await first.open();
  await first.append({ k: 'd', id: 'survivor' });
  // Simulate a kill -9: no close, a half-written line, and an owner pid that no longer exists.
  const [file] = segments(dir);
  appendFileSync(join(dir, file), '{"k":"d","id":"torn"');
  const dead = file.replace(/^\d+-/, '999999999-');
  renameSync(join(dir, file), join(dir, dead));
  writeFileSync(join(dir, dead.replace(/\.\d+\.log$/, '.lock')), '');
  const second = createJournal({ dir, live: () => [] });
  const adopted = await second.open();
  assert.equal(adopted.map((a) => a.record.id), ['survivor']);
  assert.ok(!segments(dir).includes(dead), 'renamed to its new owner');
  await Promise.all([second.close(), first.close()]);
});

test('segments made ahead are filled with zeros: a dead owner\'s records are all found past them, a closed one is cut to its records', async () => {
  const dir = tmpDir('weir-journal-');
  const maxSegmentBytes = 4096;
  const first = createJournal({ dir, live: () => [], maxSegmentBytes, scanMs: 0 });
  await first.open();
  const ids = Array.from({ length: 120 }, (_, i) => `ex_${i}`);
  for (const id of ids) await first.append({ k: 'd', id, in: { pad: 'x'.repeat(60) } }, { pin: true });
  const sizes = segments(dir).map((f) => readFileSync(join(dir, f)).length);
  assert.ok(sizes.length >= 3, `${sizes.length} segments`);
  // Every segment but the first was made ahead of time: at least the filled size, zeros after its records.
  const filled = segments(dir).filter((f) => readFileSync(join(dir, f)).length >= maxSegmentBytes);
  assert.ok(filled.length >= 2, `${filled.length} filled segments`);
  const tail = readFileSync(join(dir, filled[filled.length - 1]));
  assert.is(tail[tail.length - 1], 0, 'the unused end is zeros');
  // Simulate a kill -9 of the owner: a second journal adopts every segment and finds each record once.
  for (const f of segments(dir)) renameSync(join(dir, f), join(dir, f.replace(/^\d+-/, '999999999-')));
  const second = createJournal({ dir, live: () => [], maxSegmentBytes, scanMs: 0 });
  const adopted = (await second.open()).map((a) => a.record.id);
  assert.equal(adopted.sort(), [...ids].sort());
  await second.close();
  await first.close().catch(() => {});

  // A clean close cuts each segment it keeps (pinned records) to its records; the next start finds them all.
  const clean = tmpDir('weir-journal-');
  const third = createJournal({ dir: clean, live: () => [], maxSegmentBytes, scanMs: 0 });
  await third.open();
  for (const id of ids) await third.append({ k: 'd', id, in: { pad: 'x'.repeat(60) } }, { pin: true });
  await third.close();
  const kept = segments(clean).map((f) => readFileSync(join(clean, f)));
  assert.ok(kept.length >= 3);
  for (const data of kept) assert.not.ok(data.includes(0), 'no zeros left in a closed segment');
  const fourth = createJournal({ dir: clean, live: () => [], maxSegmentBytes, scanMs: 0 });
  assert.equal((await fourth.open()).map((a) => a.record.id).sort(), [...ids].sort());
  await fourth.close();
});

test('deliveries: accepted, read back from disk when not held in memory, finished ones not replayed', async () => {
  const dir = tmpDir('weir-journal-');
  const d1 = createDeliveries({ dir, acceptedAnswer });
  await d1.open();
  const kept: Delivery = { id: 'ex_kept', workflowId: 'wf_1', input: { body: { a: 1 } }, at: 1 };
  const done = { id: 'ex_done', workflowId: 'wf_1', input: { body: { a: 2 } }, at: 2 };
  await d1.accept(kept, { key: 'wf_1\u0000k1', exp: Date.now() + 60_000, statusUrl: 'http://h/executions/ex_kept.mac' });
  await d1.accept(done);
  d1.finish(done);
  const spilled = { id: '', workflowId: '', at: 0, pos: kept.pos };
  assert.equal(await d1.load(spilled), { id: 'ex_kept', workflowId: 'wf_1', at: 1, pos: kept.pos, input: { body: { a: 1 } } });
  await d1.close();

  const d2 = createDeliveries({ dir, acceptedAnswer });
  const replay = await d2.open();
  assert.equal(replay.map((d) => [d.id, d.input]), [['ex_kept', { body: { a: 1 } }]]);
  assert.equal(await d2.dedupe.seen('wf_1\u0000k1'), { status: 200, body: { executionId: 'ex_kept', statusUrl: 'http://h/executions/ex_kept.mac' } }, 'a duplicate after a restart gets the first answer whole');
  await d2.close();
});

test('a replayed delivery counts its starts on disk: the count survives restarts and adoption, the old copy goes', async () => {
  const dir = tmpDir('weir-journal-');
  const first = createDeliveries({ dir, acceptedAnswer });
  await first.open();
  await first.accept({ id: 'ex_hog', workflowId: 'wf_1', input: { body: { n: 1 } }, at: 1 }, { key: 'wf_1\u0000k', exp: Date.now() + 60_000, statusUrl: 'http://h/executions/ex_hog.mac' });
  await first.close();
  const counted: number[] = [];
  for (let life = 0; life < 3; life++) {
    const host = createDeliveries({ dir, acceptedAnswer });
    const [d, ...rest] = await host.open();
    assert.equal(rest, [], 'one delivery, however many copies of it were written');
    counted.push(d.starts!);
    const again = await host.restart(d);
    assert.is(again.starts, d.starts! + 1);
    assert.equal((await host.load({ id: '', workflowId: '', at: 0, pos: again.pos, replayed: true })).input, { body: { n: 1 } });
    await host.close();
  }
  assert.equal(counted, [1, 2, 3]);
  const last = createDeliveries({ dir, acceptedAnswer });
  const [d] = await last.open();
  assert.is(d.starts, 4);
  assert.equal(await last.dedupe.seen('wf_1\u0000k'), { status: 200, body: { executionId: 'ex_hog', statusUrl: 'http://h/executions/ex_hog.mac' } }, 'the copy keeps the idempotency key and the answer');
  const lines = segments(dir).flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter((l) => l.includes('"k":"d"')));
  assert.is(lines.length, 1, 'only the newest copy is kept on disk');
  last.finish(d);
  await last.close();
  assert.equal(await createDeliveries({ dir, acceptedAnswer }).open(), [], 'finished: not replayed');
});

test('a delivery journaled from the request\'s own JSON text (line breaks, escapes, unicode) replays as the parsed input', async () => {
  const dir = tmpDir('weir-journal-');
  const raw = Buffer.from('{\r\n  "text": "line\\nbreak \\"quoted\\" \u2028 ünï",\n  "n": [1, 2.5e3, null]\n}\n');
  const input = new WebhookInput(decodeBody({ contentType: 'application/json; charset=utf-8', raw }) as DecodedBody, { 'content-type': 'application/json' }, { q: ['a', 'b'] }, 'PUT');
  const d1 = createDeliveries({ dir, acceptedAnswer });
  await d1.open();
  await d1.accept({ id: 'ex_text', workflowId: 'wf_1', input, at: 5 });
  await d1.close();
  const written = segments(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
  assert.ok(written.includes('2.5e3'), 'the line holds the request\'s own text, not a serialization of it');
  assert.is(written.split('ünï').length, 2, 'the body is stored once');
  const d2 = createDeliveries({ dir, acceptedAnswer });
  const [replayed, ...rest] = await d2.open();
  assert.equal(rest, []);
  assert.equal(replayed.input, { ...input });
  assert.equal((replayed.input as { body: { text: string } }).body.text, 'line\nbreak "quoted" \u2028 ünï');
  assert.is((replayed.input as { rawBody: string }).rawBody, raw.toString('utf8'), 'the replayed rawBody is the request text byte for byte');
  assert.is(written.split('\n').filter(Boolean).length, 1, 'the delivery is one journal line');
  await d2.close();
});

test('the delivery queue keeps order and holds deep deliveries as positions only', () => {
  const q = createDeliveryQueue(2);
  const d = (n: number, replayed = false): Delivery => ({ id: `ex_${n}`, workflowId: 'wf', input: { n }, at: n, pos: { segment: `s${n % 2}`, offset: n * 10, length: 9 }, replayed });
  for (let n = 0; n < 5000; n++) q.push(d(n, n === 3));
  assert.is(q.length, 5000);
  assert.equal(q.shift(), d(0));
  assert.equal(q.shift(), d(1));
  const stub = q.shift()!;
  assert.equal(stub, { id: '', workflowId: '', at: 0, pos: { segment: 's0', offset: 20, length: 9 }, replayed: false });
  assert.is(q.shift()!.replayed, true);
  for (let n = 4; n < 4999; n++) q.shift();
  assert.equal(q.shift()!.pos, { segment: 's1', offset: 49990, length: 9 });
  assert.is(q.length, 0);
  assert.is(q.shift(), undefined);
  q.push(d(7));
  assert.equal(q.shift(), d(7), 'held as an object again once the spill drained');
});

test('an idle segment that took records is closed: the finished deliveries leave the disk, the live records stay', async () => {
  const dir = tmpDir('weir-journal-');
  const journal = createJournal({ dir, live: () => [{ k: 'a', key: 'kept' }], idleMs: 40 });
  await journal.open();
  const [first] = segments(dir);
  await journal.append({ k: 'd', id: 'finished-delivery', in: { card: 'ends-with-4242' } });
  const pinned = await journal.append({ k: 'd', id: 'still-running' }, { pin: true });
  const text = () => segments(dir).map((f) => readFileSync(join(dir, f), 'utf8')).join('');
  // The new segment is made before the live records are written into it: both are waited for.
  await until(() => !segments(dir).includes(first) || (first === pinned.segment && segments(dir).length > 1), 5000, 'the idle segment closed');
  await until(() => text().includes('"kept"'), 5000, 'the live record moved into the new segment');
  journal.unpin(pinned.segment);
  await until(() => !text().includes('ends-with-4242'), 5000, 'the finished delivery gone from the disk');
  const settled = segments(dir);
  // Nothing new arrived: the journal stays as it is (no rotation for the carried-over live records alone).
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(segments(dir), settled);
  await journal.close();
});

test.run();
