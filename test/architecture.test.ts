// The shape of the code, checked: no import cycle, the runtime and the triggers know nothing of the host,
// and the host reaches triggers only through their registry (src/triggers/index.ts).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import madge from 'madge';
import { ROOT } from './_utils.js';

/** Every TypeScript file under a folder of the repository, as a path relative to the root. */
const filesUnder = (dir: string): string[] =>
  readdirSync(join(ROOT, dir)).flatMap((name) => {
    const path = join(dir, name);
    return statSync(join(ROOT, path)).isDirectory() ? filesUnder(path) : name.endsWith('.ts') ? [path] : [];
  });

/** The repository-relative files a source file imports (relative specifiers only, type imports included). */
function importsOf(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const found = text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g);
  return [...found].map((m) => relative(ROOT, resolve(join(ROOT, dirname(file)), m[1])).replace(/\.js$/, '.ts'));
}

test('madge finds no import cycle in src/ and adapters/', async () => {
  const graph = await madge([join(ROOT, 'src'), join(ROOT, 'adapters')], { fileExtensions: ['ts'], tsConfig: join(ROOT, 'tsconfig.json') });
  assert.ok(Object.keys(graph.obj()).length > 200, 'madge read the sources');
  assert.equal(graph.circular(), []);
});

test('nothing under src/runtime/ or src/triggers/ imports src/host/', () => {
  const offenders = [...filesUnder('src/runtime'), ...filesUnder('src/triggers')].flatMap((file) =>
    importsOf(file).filter((target) => target.startsWith('src/host/')).map((target) => `${file} -> ${target}`),
  );
  assert.ok(filesUnder('src/triggers').length > 10 && filesUnder('src/runtime').length > 10, 'both folders were read');
  assert.equal(offenders, []);
});

test('src/host/ names no trigger: it imports src/triggers/ through the registry only', () => {
  const offenders = filesUnder('src/host').flatMap((file) =>
    importsOf(file)
      .filter((target) => target.startsWith('src/triggers/') && target !== 'src/triggers/index.ts')
      .map((target) => `${file} -> ${target}`),
  );
  assert.equal(offenders, []);
  const hostText = filesUnder('src/host').map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');
  assert.not.match(hostText, /schedule_trigger|webhook_trigger|sms_received_trigger|inbound_call_trigger|createScheduler/);
});

test.run();
