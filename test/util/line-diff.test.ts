import { test } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { colorDiff, diffLines, unifiedDiff } from '../../src/util/line-diff.js';

/** The length of a longest common subsequence, by the textbook table: what a shortest edit keeps. */
function lcs(a: string[], b: string[]): number {
  const row = new Array(b.length + 1).fill(0);
  for (const x of a) {
    let diag = 0;
    for (let j = 1; j <= b.length; j++) {
      const up = row[j];
      row[j] = x === b[j - 1] ? diag + 1 : Math.max(row[j], row[j - 1]);
      diag = up;
    }
  }
  return row[b.length];
}

test('diffLines: kept lines read as both texts, removed as the old, added as the new; the edit is shortest', () => {
  const lines = fc.array(fc.constantFrom('a', 'b', 'c', '{', '}', ''), { maxLength: 30 });
  fc.assert(
    fc.property(lines, lines, (a, b) => {
      const ops = diffLines(a, b);
      assert.equal(ops.filter((o) => o.op !== '+').map((o) => o.line), a);
      assert.equal(ops.filter((o) => o.op !== '-').map((o) => o.line), b);
      assert.is(ops.filter((o) => o.op === ' ').length, lcs(a, b));
    }),
    { numRuns: 500 },
  );
});

test('unifiedDiff: headers, a hunk with three lines of context and the counts git prints', () => {
  const before = ['{', '  "a": 1,', '  "b": 2,', '  "c": 3,', '  "d": 4,', '  "e": 5,', '  "f": 6', '}'].join('\n');
  const after = before.replace('"d": 4', '"d": 40');
  assert.is(
    unifiedDiff(before, after, { from: 'published', to: 'local' }),
    ['--- published', '+++ local', '@@ -2,7 +2,7 @@', '   "a": 1,', '   "b": 2,', '   "c": 3,', '-  "d": 4,', '+  "d": 40,', '   "e": 5,', '   "f": 6', ' }', ''].join('\n'),
  );
  assert.is(unifiedDiff(before, before), '');
});

test('unifiedDiff: far apart changes make two hunks; from nothing, every line is added', () => {
  const before = Array.from({ length: 20 }, (_, i) => `line ${i}`).join('\n');
  const after = before.replace('line 1\n', 'line one\n').replace('line 18', 'line eighteen');
  const hunks = unifiedDiff(before, after).split('\n').filter((l) => l.startsWith('@@'));
  assert.equal(hunks, ['@@ -1,5 +1,5 @@', '@@ -16,5 +16,5 @@']);
  assert.is(unifiedDiff('', 'x\ny'), '--- a\n+++ b\n@@ -0,0 +1,2 @@\n+x\n+y\n');
});

test('colorDiff: removed lines red, added green, hunk heads cyan, a removed "--" line is not a header', () => {
  const colored = colorDiff(unifiedDiff('-- x\nkeep', '++ y\nkeep'));
  assert.equal(colored.split('\n'), ['\x1b[1m--- a\x1b[0m', '\x1b[1m+++ b\x1b[0m', '\x1b[36m@@ -1,2 +1,2 @@\x1b[0m', '\x1b[31m--- x\x1b[0m', '\x1b[32m+++ y\x1b[0m', ' keep', '']);
});

test.run();
