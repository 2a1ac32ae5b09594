import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, tmpDir } from '../_utils.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
/** What npm installs only on request: none of them may be named by weir's declarations. */
const OPTIONAL = [...Object.keys(pkg.peerDependencies), ...Object.keys(pkg.optionalDependencies)];

// A user's app, compiled against the packed package exactly as npm would install it: weir's published
// declarations must type-check under --strict without skipLibCheck, whatever the module resolution.
// The `@ts-expect-error` lines prove the types are real: if a call were typed `any`/`unknown`, the
// directive would be unused and tsc would fail.
const APP = `
import { createWeir, type KeyValueStorage, type WorkflowConfig, type Weir, type WeirConfig, type ExecutionRecord } from 'weir';
import { createListener } from 'weir/node-http';
import { createFetchHandler } from 'weir/fetch';

const settings: WeirConfig = { webhook: { exposeErrors: false }, executions: { retentionDays: 7 } };

export async function answer(weir: Weir, request: Request): Promise<Response> {
  const handle = createFetchHandler(weir, { prefix: '/hooks' });
  const response = await handle(request);
  await handle.close();
  return response;
}

export const statusOf = (record: ExecutionRecord): string => record.status;

const config: WorkflowConfig = {
  nodes: [
    { id: 'manual_trigger-1', type: 'manual_trigger', config: {} },
    { id: 'set-1', type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' }, retry: { max: 2 } } },
  ],
  edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }],
  variables: {},
};

export async function main(store: KeyValueStorage): Promise<string> {
  const weir = await createWeir({ storage: { local: store }, config: settings });
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

/**
 * Packs the package and installs the tarball into a fresh ESM project as npm gives it to a user: without the
 * optional packages (only weir's dependencies are linked from this repo, offline), with @types/node.
 */
function installPacked(): string {
  const dir = tmpDir('weir-types-');
  // test/run.mjs built dist/ already: skip the build scripts.
  const pack = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], { cwd: ROOT, encoding: 'utf8' });
  assert.is(pack.status, 0, pack.stderr);
  const [{ filename }] = JSON.parse(pack.stdout) as Array<{ filename: string }>;
  const app = join(dir, 'app');
  const weir = join(app, 'node_modules/weir');
  mkdirSync(weir, { recursive: true });
  const untar = spawnSync('tar', ['xzf', join(dir, filename), '-C', weir, '--strip-components=1'], { encoding: 'utf8' });
  assert.is(untar.status, 0, untar.stderr);
  for (const dep of [...Object.keys(pkg.dependencies), '@types/node']) {
    const link = join(app, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), link, 'dir');
  }
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
  writeFileSync(join(app, 'index.ts'), APP);
  writeFileSync(join(app, 'index.mts'), APP);
  // The CommonJS entry (`require` condition, dist/*.d.cts) under nodenext.
  writeFileSync(join(app, 'index.cts'), APP);
  return app;
}

const app = installPacked();

/** `tsc --strict --noEmit` over the app with the given module settings. */
function tsc(app: string, name: string, module: string, moduleResolution: string, files: string[]) {
  const compilerOptions = { strict: true, noEmit: true, skipLibCheck: false, target: 'es2022', module, moduleResolution, types: ['node'] };
  writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify({ compilerOptions, files }));
  return spawnSync(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', `tsconfig.${name}.json`], { cwd: app, encoding: 'utf8' });
}

test('the packed types compile under --strict without skipLibCheck and without the optional packages: nodenext and bundler', () => {
  const nodenext = tsc(app, 'nodenext', 'nodenext', 'nodenext', ['index.ts', 'index.mts', 'index.cts']);
  assert.is(nodenext.stdout + nodenext.stderr, '', 'nodenext: no diagnostics');
  assert.is(nodenext.status, 0);
  const bundler = tsc(app, 'bundler', 'esnext', 'bundler', ['index.ts']);
  assert.is(bundler.stdout + bundler.stderr, '', 'bundler: no diagnostics');
  assert.is(bundler.status, 0);
});

test('no declaration file names an optional package (ioredis, bullmq, pg, playwright-core, esbuild, better-sqlite3)', () => {
  const dist = join(app, 'node_modules/weir/dist');
  const declarations = readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f));
  assert.ok(declarations.length >= 6, `declarations: ${declarations.join(', ')}`);
  for (const file of declarations) {
    const text = readFileSync(join(dist, file), 'utf8');
    const named = [...text.matchAll(/(?:from|import|require\()\s*\(?\s*['"]([^'"]+)['"]|reference types="([^"]+)"/g)].map((m) => m[1] ?? m[2]);
    for (const name of named) assert.not.ok(OPTIONAL.some((o) => name === o || name.startsWith(`${o}/`)), `${file} names ${name}`);
  }
});

test('the packed package.json has no script npm runs (or asks approval for) where weir is installed as a dependency', () => {
  const packed = JSON.parse(readFileSync(join(app, 'node_modules/weir/package.json'), 'utf8'));
  // npm's install-script policy lists these for a dependency (prepare for one from a tarball, a folder or git).
  for (const event of ['preinstall', 'install', 'postinstall', 'prepare']) assert.is(packed.scripts?.[event], undefined, event);
  // The repository still builds on its own `npm install` and before `npm pack`.
  assert.is(pkg.scripts.postprepare, 'tsup');
  assert.is(pkg.scripts.prepack, 'tsup');
});

test('the build does not warn: no import.meta beyond the url that the CommonJS shims provide', () => {
  const out = tmpDir('weir-build-');
  const build = spawnSync(process.execPath, [join(ROOT, 'node_modules/tsup/dist/cli-default.js')], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, WEIR_OUT: out } });
  assert.is(build.status, 0, build.stderr);
  const output = build.stdout + build.stderr;
  assert.match(output, 'Build success');
  assert.not.match(output, 'import.meta');
  assert.not.match(output, /WARN/);
});

test.run();
