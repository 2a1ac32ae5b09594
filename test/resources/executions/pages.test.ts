import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { createStorage } from 'unstorage';
import { createWeir, WeirError, type ExecutionRecord, type KeyValueStorage, type Weir } from '../../../src/index.js';
import { memoryDriver } from '../../../src/storage/memory-driver.js';
import { cli, tmpDir } from '../../_utils.js';
import { chain, testNodes } from '../../flow/_flows.js';

const ok = chain([{ id: 'set-1', type: 'set', config: { values: { n: '{{ $input.n }}' } } }]);
const failing = chain([{ id: 'boom-1', type: 'boom' }]);
const waiting = chain([{ id: 'wait-1', type: 'wait', config: { for: '1h' } }]);

type Row = Pick<ExecutionRecord, 'id' | 'workflowId' | 'status' | 'startedAt'>;
const row = ({ id, workflowId, status, startedAt }: ExecutionRecord): Row => ({ id, workflowId, status, startedAt });
/** The order of a listing: newest start first, ties by id. */
const newestFirst = (rows: Row[]) => [...rows].sort((a, b) => (a.startedAt !== b.startedAt ? (a.startedAt < b.startedAt ? 1 : -1) : a.id < b.id ? 1 : -1));

/** Runs of workflow `workflowId`: `n` at once (they share stored batches), every `failEvery`-th one failing. */
async function runs(weir: Weir, workflowId: string, n: number, failEvery = Infinity): Promise<Row[]> {
  const records = await Promise.all(
    Array.from({ length: n }, (_, i) =>
      weir.executor.run({ workflow: { id: workflowId, name: workflowId, config: (i + 1) % failEvery === 0 ? failing : ok }, input: { n: i }, trigger: 'manual' }),
    ),
  );
  return records.map(row);
}

/** Every page of a listing, following `nextCursor`; `between` runs before each page after the first. */
async function allPages(weir: Weir, options: { workflowId?: string; status?: ExecutionRecord['status']; limit: number }, between?: () => Promise<unknown>) {
  const pages: Row[][] = [];
  let cursor: string | undefined;
  do {
    if (pages.length && between) await between();
    const page = await weir.executions.page({ ...options, cursor });
    assert.ok(page.items.length <= options.limit);
    pages.push(page.items.map(row));
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return pages;
}

test('pages over 360 executions of three workflows: newest first, no gaps or repeats while new ones start, filters by workflow and status', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {}, nodes: testNodes() });
  const all: Row[] = [];
  // Groups of runs at once (several per stored batch) and runs one by one (a batch each).
  for (let round = 0; round < 6; round++) {
    all.push(...(await runs(weir, 'wf_a', 30, 7)), ...(await runs(weir, 'wf_b', 20)));
    for (let i = 0; i < 5; i++) all.push(...(await runs(weir, 'wf_c', 1)), ...(await runs(weir, 'wf_a', 1)));
  }
  assert.is(all.length, 360);
  const ofA = newestFirst(all.filter((r) => r.workflowId === 'wf_a'));
  const errors = newestFirst(all.filter((r) => r.status === 'error'));
  assert.is(errors.length, 24);

  const started: Row[] = [];
  const pagesOfA = await allPages(weir, { workflowId: 'wf_a', limit: 17 }, async () => started.push(...(await runs(weir, 'wf_a', 3, 2))));
  assert.equal(pagesOfA.flat(), ofA, 'every execution of wf_a once, in order, none of those started while paging');
  assert.is(pagesOfA.length, Math.ceil(ofA.length / 17));
  assert.ok(started.length > 0);
  // A new instance (another process) reads the same from disk, the executions started while paging first.
  await weir.close();
  const again = await createWeir({ home, env: {} });
  const everything = newestFirst([...all, ...started]);
  assert.equal((await allPages(again, { limit: 50 })).flat(), everything);
  assert.equal((await allPages(again, { status: 'error', limit: 5 })).flat(), newestFirst([...errors, ...started.filter((r) => r.status === 'error')]));
  assert.equal((await allPages(again, { workflowId: 'wf_b', status: 'error', limit: 5 })).flat(), [], 'wf_b has no errors');
  const cFirst = await again.executions.page({ workflowId: 'wf_c', limit: 30 });
  assert.equal(cFirst.items.map(row), newestFirst(all.filter((r) => r.workflowId === 'wf_c')));
  assert.is(cFirst.nextCursor, null, 'a last page has no next cursor');
  assert.equal((await again.executions.list({ workflowId: 'wf_a', limit: 600 })).map(row), newestFirst([...ofA, ...started]), 'list() follows the pages');

  for (const bad of [{ cursor: 'not-a-cursor' }, { cursor: Buffer.from('["yesterday","x"]').toString('base64url') }, { status: 'lost' as never }]) {
    try {
      await again.executions.page(bad);
      assert.unreachable(JSON.stringify(bad));
    } catch (err) {
      assert.instance(err, WeirError);
      assert.is((err as WeirError).code, 'INVALID_INPUT');
    }
  }
  await again.close();
});

/** A memory store that records the keys read from it. */
function countingStore(): { store: KeyValueStorage; reads: string[] } {
  const store = createStorage({ driver: memoryDriver() }) as unknown as KeyValueStorage;
  const reads: string[] = [];
  return {
    reads,
    store: {
      ...store,
      hasItem: (key) => store.hasItem(key),
      setItem: (key, value, options) => store.setItem(key, value, options),
      setItemRaw: (key, value) => store.setItemRaw(key, value),
      removeItem: (key) => store.removeItem(key),
      getKeys: (base) => store.getKeys(base),
      clear: (base) => store.clear(base),
      dispose: () => store.dispose(),
      getItem(key) {
        reads.push(key);
        return store.getItem(key);
      },
      getItemRaw(key) {
        reads.push(key);
        return store.getItemRaw(key);
      },
      getItems(keys) {
        reads.push(...keys);
        return store.getItems(keys);
      },
    },
  };
}

test("one workflow's listing reads only its own entries, unfinished and finished, never another's", async () => {
  const { store, reads } = countingStore();
  const weir = await createWeir({ env: {}, storage: { cloud: store } });
  const flow = (id: string, config: unknown) => ({ id, name: id, config: config as never });
  const mine: string[] = [];
  for (let i = 0; i < 3; i++) mine.push((await weir.executor.run({ workflow: flow('wf_mine', i ? ok : waiting), input: { n: i }, trigger: 'manual' })).id);
  // The other workflow's executions are newer, waiting ones among them: a listing by start meets them first.
  const theirs: string[] = [];
  for (let i = 0; i < 6; i++) theirs.push((await weir.executor.run({ workflow: flow('wf_theirs', i % 2 ? ok : waiting), input: {}, trigger: 'manual' })).id);
  reads.length = 0;
  const listed = await weir.executions.list({ workflowId: 'wf_mine', limit: 10 });
  assert.equal(listed.map((r) => r.id), [...mine].reverse());
  assert.is(listed[2].status, 'waiting');
  assert.ok(reads.length > 0, 'it read its own');
  const foreign = reads.filter((key) => key.includes('wf_theirs') || theirs.some((id) => key.includes(id)));
  assert.equal(foreign, [], 'no key of wf_theirs was read');
  reads.length = 0;
  const page = await weir.executions.page({ workflowId: 'wf_mine', status: 'waiting' });
  assert.equal(page.items.map((r) => r.id), [mine[0]]);
  assert.equal(reads.filter((key) => key.includes('wf_theirs') || theirs.some((id) => key.includes(id))), []);
  await weir.close();
});

test('a home from before: batches and unfinished entries stored without starts, tallies or markers are listed', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {} });
  const flow = (id: string, config: unknown) => ({ id, name: id, config: config as never });
  const rows: Row[] = [];
  for (let i = 0; i < 4; i++) rows.push(row(await weir.executor.run({ workflow: flow('wf_old', i === 2 ? waiting : ok), input: { n: i }, trigger: 'manual' })));
  const other = row(await weir.executor.run({ workflow: flow('wf_other', waiting), input: {}, trigger: 'manual' }));
  await weir.close();
  // Back to the layout of before: batch keys end after the batch id, and no entry has a marker.
  const executions = join(home, 'cloud', 'executions');
  for (const name of readdirSync(join(executions, 'runs', 'wf_old'))) {
    renameSync(join(executions, 'runs', 'wf_old', name), join(executions, 'runs', 'wf_old', name.split('_').slice(0, 3).join('_')));
  }
  rmSync(join(executions, 'opened'), { recursive: true });
  const again = await createWeir({ home, env: {} });
  assert.equal((await again.executions.page({ workflowId: 'wf_old' })).items.map(row), newestFirst(rows));
  assert.equal((await again.executions.page({ workflowId: 'wf_old', status: 'waiting' })).items.map(row), rows.filter((r) => r.status === 'waiting'));
  assert.equal((await again.executions.page({ workflowId: 'wf_other' })).items.map(row), [other]);
  assert.equal((await again.executions.page({ limit: 2 })).items.map(row), newestFirst([...rows, other]).slice(0, 2));
  await again.close();
});

test("an unfinished entry's marker goes with it, also when another process removes the entry", async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {} });
  const flow = { id: 'wf_marked', name: 'marked', config: waiting as never };
  const [here, there] = [await weir.executor.run({ workflow: flow, input: {}, trigger: 'manual' }), await weir.executor.run({ workflow: flow, input: {}, trigger: 'manual' })];
  const markers = () => readdirSync(join(home, 'cloud', 'executions', 'opened', 'wf_marked')).sort();
  assert.equal(markers(), [here.id, there.id].sort());
  await weir.executions.cancel(here.id);
  assert.equal(markers(), [there.id]);
  await weir.close();
  const other = await createWeir({ home, env: {} });
  await other.executions.cancel(there.id);
  assert.equal(markers(), []);
  assert.equal((await other.executions.page({ workflowId: 'wf_marked' })).items.map((r) => [r.id, r.status]), [there.id, here.id].sort().reverse().map((id) => [id, 'cancelled']));
  await other.close();
});

test('weir workflows executions pages with --status and --cursor, printing the next cursor', async () => {
  const home = tmpDir();
  const weir = await createWeir({ home, env: {}, nodes: testNodes() });
  const { id } = await weir.workflows.create('paged', undefined, { config: ok, publish: true });
  const rows = await runs(weir, id, 40, 4);
  await weir.close();
  const errors = newestFirst(rows.filter((r) => r.status === 'error')).map((r) => r.id);
  assert.is(errors.length, 10);

  const first = await cli(['workflows', 'executions', id, '--status', 'error', '--limit', '6', '--json'], { home });
  assert.is(first.code, 0, first.stderr);
  assert.equal(first.json().map((r: Row) => r.id), errors.slice(0, 6));
  const cursor = /--cursor (\S+)/.exec(first.stderr)?.[1];
  assert.ok(cursor, `the next cursor on stderr: ${first.stderr}`);
  const second = await cli(['workflows', 'executions', id, '--status', 'error', '--limit', '6', '--cursor', cursor!], { home });
  assert.is(second.code, 0, second.stderr);
  assert.equal(errors.slice(6).map((e) => second.stdout.includes(e)), [true, true, true, true]);
  assert.not.ok(second.stdout.includes(errors[5]), 'the first page is not repeated');
  assert.not.match(second.stdout, /next page/, 'the last page names no next one');
  const text = await cli(['workflows', 'executions', id, '--limit', '3'], { home });
  assert.match(text.stdout, new RegExp(`next page: weir workflows executions ${id} --limit 3 --cursor \\S+`));
  const bad = await cli(['workflows', 'executions', id, '--cursor', 'nope'], { home });
  assert.is(bad.code, 1);
  assert.match(bad.stderr, /not a cursor/);
});

test.run();
