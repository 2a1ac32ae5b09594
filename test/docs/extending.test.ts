// docs/extending.md shows the files of examples/extending/ whole: each block equals its file, the files
// type-check against the package's published declarations (a wrong config must not), and their tests run
// here against a real weir instance.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tmpDir } from '../_utils.js';

const EXAMPLES = join(ROOT, 'examples/extending');
const page = readFileSync(join(ROOT, 'docs/extending.md'), 'utf8');
const blocks = [...page.matchAll(/```ts file=(\S+)\n([\s\S]*?)```/g)].map((m) => ({ file: m[1], code: m[2] }));
const files = readdirSync(EXAMPLES).filter((f) => f.endsWith('.ts')).sort();

test('every TypeScript block of docs/extending.md is a file of examples/extending/, shown whole, and every file is shown', () => {
  assert.equal(blocks.map((b) => b.file).sort(), files.map((f) => `examples/extending/${f}`));
  for (const { file, code } of blocks) assert.ok(code === readFileSync(join(ROOT, file), 'utf8'), `${file} differs from its block in docs/extending.md`);
  assert.not.match(page, /```(ts|typescript)\n/, 'no TypeScript block without its file');
});

test('the examples type-check against dist/index.d.ts; without its @ts-expect-error lines, checked.ts fails on each of them', () => {
  const dir = tmpDir('weir-extending-tsc-');
  // checked.ts with each directive gone: the line after it must then be the compile error it announced.
  const checked = readFileSync(join(EXAMPLES, 'checked.ts'), 'utf8').split('\n');
  const expected = checked.flatMap((line, i) => (line.includes('@ts-expect-error') ? [String(i + 2)] : []));
  assert.is(expected.length, 3);
  const stripped = checked.map((line) => (line.includes('@ts-expect-error') ? '' : line)).join('\n').replace("'./flow.js'", JSON.stringify(join(EXAMPLES, 'flow.js')));
  writeFileSync(join(dir, 'stripped.ts'), stripped);
  const compilerOptions = { paths: { weir: [join(ROOT, 'dist/index.d.ts')] }, typeRoots: [join(ROOT, 'node_modules/@types')] };
  const tsconfig = { extends: join(ROOT, 'tsconfig.json'), compilerOptions, include: [], files: [...files.map((f) => join(EXAMPLES, f)), 'stripped.ts'] };
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig));
  const r = spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json'], { cwd: dir, encoding: 'utf8' });
  const errors = r.stdout.split('\n').filter((line) => /error TS/.test(line));
  assert.equal(errors.filter((e) => !e.startsWith('stripped.ts')), [], r.stdout);
  assert.equal(errors.map((e) => /^stripped\.ts\((\d+),/.exec(e)?.[1]), expected, r.stdout);
  assert.match(r.stdout, "'seperator' does not exist");
});

test.run();

// The example's own tests (the custom node in a flow, the custom trigger firing and its execution recorded).
await import('../../examples/extending/extending.test.js');
