import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, tmpDir } from '../_utils.js';

// A user's app, compiled against the packed package exactly as npm would install it: weir's published
// declarations must type-check under --strict without skipLibCheck, whatever the module resolution.
// The `@ts-expect-error` lines prove the types are real: if a call were typed `any`/`unknown`, the
// directive would be unused and tsc would fail.
const APP = `
import { createWeir, type KeyValueStorage, type WorkflowConfig } from 'weir';
import { createListener } from 'weir/node-http';

const config: WorkflowConfig = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    { id: 'set-1', type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' }, retry: { max: 2 } } },
  ],
  edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }],
  variables: {},
};

export async function main(store: KeyValueStorage): Promise<string> {
  const weir = await createWeir({ storage: { local: store } });
  const { id } = await weir.workflows.create('hello');
  const saved = await weir.workflows.save(id, config);
  // @ts-expect-error edges need a source and a target
  await weir.workflows.save(id, { nodes: [], edges: [{ id: 'e1' }] });
  const result = await weir.executeFlow<{ greeting: string }>('hello', { name: 'Ada' });
  // @ts-expect-error the result is typed: greeting is a string
  const wrong: number = result.greeting;
  const listener = createListener(weir);
  await listener.close();
  await weir.close();
  return \`\${saved.status} \${result.greeting} \${wrong}\`;
}
`;

/** Packs the package and installs the tarball into a fresh project (dependencies linked from this repo). */
function installPacked(): string {
  const dir = tmpDir('weir-types-');
  // test/run.mjs built dist/ already: skip the prepare script.
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
  assert.is(pack.status, 0, pack.stderr);
  const [{ filename }] = JSON.parse(pack.stdout) as Array<{ filename: string }>;
  const pkg = join(dir, 'app/node_modules/weir');
  mkdirSync(pkg, { recursive: true });
  const untar = spawnSync('tar', ['xzf', join(dir, filename), '-C', pkg, '--strip-components=1'], { encoding: 'utf8' });
  assert.is(untar.status, 0, untar.stderr);
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'), 'dir');
  mkdirSync(join(dir, 'app/node_modules/@types'));
  symlinkSync(join(ROOT, 'node_modules/@types/node'), join(dir, 'app/node_modules/@types/node'), 'dir');
  const app = join(dir, 'app');
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  writeFileSync(join(app, 'index.ts'), APP);
  writeFileSync(join(app, 'index.mts'), APP);
  // The CommonJS entry (`require` condition, dist/*.d.cts) under nodenext.
  writeFileSync(join(app, 'index.cts'), APP);
  return app;
}

/** `tsc --strict --noEmit` over the app with the given module settings. */
function tsc(app: string, name: string, module: string, moduleResolution: string, files: string[]) {
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', module, moduleResolution, types: ['node'] };
  writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files }));
  return spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${name}.json`], { cwd: app, encoding: 'utf8' });
}

test('the packed types compile under --strict without skipLibCheck: nodenext and bundler', () => {
  const app = installPacked();
  const nodenext = tsc(app, 'nodenext', 'nodenext', 'nodenext', ['index.ts', 'index.mts', 'index.cts']);
  assert.is(nodenext.stdout + nodenext.stderr, '', 'nodenext: no diagnostics');
  assert.is(nodenext.status, 0);
  const bundler = tsc(app, 'bundler', 'esnext', 'bundler', ['index.ts']);
  assert.is(bundler.stdout + bundler.stderr, '', 'bundler: no diagnostics');
  assert.is(bundler.status, 0);
});

test.run();
