import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createGroupCommit } from '../../src/util/group-commit.js';

const turn = () => new Promise((r) => setImmediate(r));

/** A group commit whose writes append each batch's values to `batches`. */
function logged(linger?: (items: number) => number) {
  const batches: string[][] = [];
  const commit = createGroupCommit<string, string>(async (batch) => void batches.push([...batch.values()]), { linger });
  return { batches, commit };
}

test('puts of one turn go out as one batch; a later put of the same key in that batch replaces the earlier', async () => {
  const { batches, commit } = logged();
  await Promise.all([commit.put('a', () => 'a1'), commit.put('b', () => 'b1'), commit.put('a', (old) => `${old}+a2`)]);
  assert.equal(batches, [['a1+a2', 'b1']]);
});

test('a lingering batch waits for more items; an urgent put sends it on the next turn, with what waited', async () => {
  const { batches, commit } = logged(() => 60_000);
  const first = commit.put('a', () => 'a');
  for (let i = 0; i < 3; i++) await turn();
  assert.equal(batches, [], 'held back by the linger');
  const urgent = commit.put('b', () => 'b', true);
  for (let i = 0; i < 3; i++) await turn();
  assert.equal(batches, [['a', 'b']], 'sent without waiting for the linger');
  await Promise.all([first, urgent]);
  // The next batch lingers again unless it holds an urgent item.
  void commit.put('c', () => 'c');
  for (let i = 0; i < 3; i++) await turn();
  assert.is(batches.length, 1);
  void commit.put('d', () => 'd', true);
  for (let i = 0; i < 3; i++) await turn();
  assert.equal(batches, [['a', 'b'], ['c', 'd']]);
});

test('add joins the next batch without a promise; flush sends a batch even when nothing is queued, after what came before', async () => {
  const calls: string[][] = [];
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const commit = createGroupCommit<string, string>(async (batch) => {
    calls.push([...batch.values()]);
    if (calls.length === 1) await held;
  });
  commit.add('a', () => 'a');
  const first = commit.flush();
  await turn();
  assert.equal(calls, [['a']], 'the added entry went out with the flush');
  commit.add('b', () => 'b');
  const second = commit.flush();
  await turn();
  assert.equal(calls.length, 1, 'one write at a time: b waits for the first batch');
  release();
  await first;
  await second;
  assert.equal(calls, [['a'], ['b']]);
  await commit.flush();
  assert.equal(calls, [['a'], ['b'], []], 'an empty batch is written (a barrier)');
});

test.run();
