import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { jsonSyntaxProblem } from '../../src/util/json-syntax.js';

/** Where Node itself puts the fault, when its message says: `at position N` (Node 20), `(line L column C)` (Node 22+). */
function nodeSays(text: string, message: string): { line: number; column: number } | null {
  const lc = /\(line (\d+) column (\d+)\)/.exec(message);
  if (lc) return { line: Number(lc[1]), column: Number(lc[2]) };
  const pos = /at position (\d+)/.exec(message);
  if (!pos) return null;
  const before = text.slice(0, Number(pos[1]));
  return { line: before.split('\n').length, column: before.length - before.lastIndexOf('\n') };
}

// JSON text (pretty-printed, so faults fall on many lines) with a few characters inserted, removed or replaced.
const broken = fc
  .tuple(
    fc.json({ depthSize: 'small' }).map((t) => JSON.stringify(JSON.parse(t), null, 2)),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom('insert', 'remove', 'replace'), fc.constantFrom(...'{}[]",:.-+eE0 \n\tatfnu\\\u0001x')), { minLength: 1, maxLength: 3 }),
  )
  .map(([text, edits]) =>
    edits.reduce((t, [at, how, c]) => {
      const i = at % (t.length + 1);
      return how === 'insert' ? t.slice(0, i) + c + t.slice(i) : t.slice(0, i) + (how === 'replace' ? c : '') + t.slice(i + 1);
    }, text),
  );

test('every text JSON.parse refuses gets one line naming a line and column, where Node puts the fault when it says', () => {
  fc.assert(
    fc.property(broken, (text) => {
      let error: unknown;
      try {
        JSON.parse(text);
        return;
      } catch (err) {
        error = err;
      }
      const problem = jsonSyntaxProblem(text, error);
      const m = /^[^\n]+ at line (\d+), column (\d+)$/.exec(problem);
      assert.ok(m, `one line ending in a line and column: ${JSON.stringify(problem)}`);
      const node = nodeSays(text, (error as Error).message);
      if (node) assert.equal({ line: Number(m[1]), column: Number(m[2]) }, node, JSON.stringify(text));
    }),
    { numRuns: 3000 },
  );
});

test('an unexpected token, which Node names without a position, is found by line and column', () => {
  assert.is(jsonSyntaxProblem('{\n  "a": 1,\n  "b": x\n}', new SyntaxError()), "Unexpected token 'x' at line 3, column 8");
  assert.is(jsonSyntaxProblem('{\n  "b": tru\n}', new SyntaxError()), 'Unexpected token U+000A at line 2, column 11');
});

test.run();
