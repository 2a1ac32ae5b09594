/** One line of a line diff: kept (` `), removed (`-`) or added (`+`). */
export interface LineOp {
  op: ' ' | '-' | '+';
  line: string;
}

/**
 * The shortest edit turning the lines `a` into `b` (Myers' O(ND) algorithm), as kept, removed and added
 * lines in order; removals come before additions at the same place, as in `git diff`.
 * @example
 * diffLines(['a', 'b'], ['a', 'c']) // [{op:' ',line:'a'}, {op:'-',line:'b'}, {op:'+',line:'c'}]
 */
export function diffLines(a: string[], b: string[]): LineOp[] {
  // The common head and tail cost nothing to find and keep the edit graph to the part that changed.
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const keep = (lines: string[]): LineOp[] => lines.map((line) => ({ op: ' ', line }));
  const middle = myers(a.slice(head, a.length - tail), b.slice(head, b.length - tail));
  return [...keep(a.slice(0, head)), ...middle, ...keep(a.slice(a.length - tail))];
}

/** Myers' greedy search for the furthest reaching paths, then a walk back through the saved frontiers. */
function myers(a: string[], b: string[]): LineOp[] {
  const n = a.length;
  const m = b.length;
  const offset = n + m + 1;
  const v = new Int32Array(2 * offset + 1);
  // The frontier before each step d, kept for diagonals -d-1..d+1 only (what step d reads): O(D²) memory.
  const trace: Int32Array[] = [];
  // Going down (an insertion) from diagonal k+1 when it reaches further than going right from k-1.
  const down = (at: (k: number) => number, k: number, d: number) => k === -d || (k !== d && at(k - 1) < at(k + 1));
  const now = (k: number) => v[offset + k];
  search: for (let d = 0; d <= n + m; d++) {
    trace.push(v.slice(offset - d - 1, offset + d + 2));
    for (let k = -d; k <= d; k += 2) {
      let x = down(now, k, d) ? v[offset + k + 1] : v[offset + k - 1] + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) [x, y] = [x + 1, y + 1];
      v[offset + k] = x;
      if (x >= n && y >= m) break search;
    }
  }
  const ops: LineOp[] = [];
  let [x, y] = [n, m];
  for (let d = trace.length - 1; d >= 0; d--) {
    const frontier = trace[d];
    const then = (k: number) => frontier[d + 1 + k];
    const k = x - y;
    const prevK = down(then, k, d) ? k + 1 : k - 1;
    const prevX = then(prevK);
    const prevY = prevX - prevK;
    while (x > prevX && y > prevY) {
      x--;
      y--;
      ops.push({ op: ' ', line: a[x] });
    }
    if (d > 0) ops.push(x === prevX ? { op: '+', line: b[prevY] } : { op: '-', line: a[prevX] });
    [x, y] = [prevX, prevY];
  }
  return ops.reverse();
}

/**
 * A unified diff of two texts (`---`/`+++` headers, `@@` hunks with `context` unchanged lines around each
 * change), as `git diff` prints it; '' when the texts are equal.
 * @example
 * unifiedDiff('a\nb\n', 'a\nc\n', { from: 'published', to: 'local' })
 * // '--- published\n+++ local\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n'
 */
export function unifiedDiff(before: string, after: string, { from = 'a', to = 'b', context = 3 } = {}): string {
  const lines = (text: string) => (text === '' ? [] : text.replace(/\n$/, '').split('\n'));
  const ops = diffLines(lines(before), lines(after));
  // Where each op sits in the old and the new text (0-based line numbers before it).
  const oldAt: number[] = [];
  const newAt: number[] = [];
  let [o, n] = [0, 0];
  for (const { op } of ops) {
    oldAt.push(o);
    newAt.push(n);
    if (op !== '+') o++;
    if (op !== '-') n++;
  }
  const changed = ops.flatMap((op, i) => (op.op === ' ' ? [] : [i]));
  if (!changed.length) return '';
  let out = `--- ${from}\n+++ ${to}\n`;
  for (let c = 0; c < changed.length; ) {
    // A hunk takes in every change whose context touches the previous one's.
    let last = c;
    while (last + 1 < changed.length && changed[last + 1] - changed[last] <= 2 * context) last++;
    const start = Math.max(0, changed[c] - context);
    const end = Math.min(ops.length, changed[last] + context + 1);
    const hunk = ops.slice(start, end);
    const oldCount = hunk.filter((h) => h.op !== '+').length;
    const newCount = hunk.filter((h) => h.op !== '-').length;
    // An empty side is numbered by the line before it, as `diff -u` does.
    const range = (at: number, count: number) => `${count ? at + 1 : at},${count}`;
    out += `@@ -${range(oldAt[start], oldCount)} +${range(newAt[start], newCount)} @@\n`;
    out += hunk.map((h) => `${h.op}${h.line}\n`).join('');
    c = last + 1;
  }
  return out;
}

const PAINT = { red: '\x1b[31m', green: '\x1b[32m', cyan: '\x1b[36m', bold: '\x1b[1m', reset: '\x1b[0m' } as const;

/**
 * A unified diff coloured for a terminal, as `git diff` colours it: headers bold, `@@` lines cyan, removed
 * lines red, added lines green.
 * @example
 * process.stdout.write(colorDiff(unifiedDiff(before, after)))
 */
export function colorDiff(diff: string): string {
  let header = true;
  return diff.replace(/^.*$/gm, (line) => {
    // The `---`/`+++` pair opens the diff; after the first `@@` such lines are a removed `--` or an added `++` line.
    if (line.startsWith('@@')) header = false;
    const paint = header && line ? PAINT.bold : line.startsWith('@@') ? PAINT.cyan : line[0] === '-' ? PAINT.red : line[0] === '+' ? PAINT.green : '';
    return paint ? `${paint}${line}${PAINT.reset}` : line;
  });
}
