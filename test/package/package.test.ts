import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, tmpDir } from '../_utils.js';

const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
const OPTIONAL = ['bullmq', 'esbuild', 'ioredis', 'pg', 'playwright-core'];

/**
 * A project with the packed tarball installed as a user gets it without the optional peer packages: the
 * tarball unpacked into node_modules/weir and only the required dependencies linked from the repository
 * (offline, and each resolves its own dependencies where it really lives, so nothing leaks into weir).
 */
function installPacked(): string {
  const project = tmpDir('weir-pack-');
  const out = JSON.parse(execFileSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', project], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
  const target = join(project, 'node_modules/weir');
  mkdirSync(target, { recursive: true });
  execFileSync('tar', ['xzf', join(project, out[0].filename), '-C', target, '--strip-components=1']);
  for (const dep of Object.keys(pkg.dependencies)) {
    const link = join(project, 'node_modules', dep);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules', dep), link, 'dir');
  }
  writeFileSync(join(project, 'package.json'), '{"name":"app","private":true}');
  return project;
}

const project = installPacked();

/** Runs a script in the project, as its own code would (`type` picks ESM or CommonJS); returns stdout. */
function run(code: string, type: 'module' | 'commonjs'): string {
  const r = spawnSync(process.execPath, ['--input-type', type, '-e', code], { cwd: project, encoding: 'utf8' });
  assert.is(r.status, 0, r.stderr);
  return r.stdout.trim();
}

test('the heavy packages are optional peers, kept as devDependencies so the repository installs them', () => {
  const packed = JSON.parse(readFileSync(join(project, 'node_modules/weir/package.json'), 'utf8'));
  for (const name of OPTIONAL) {
    assert.not.ok(packed.dependencies[name], `${name} is not a dependency`);
    assert.ok(packed.peerDependencies[name], `${name} is a peer dependency`);
    assert.equal(packed.peerDependenciesMeta[name], { optional: true });
    assert.ok(packed.devDependencies[name], `${name} is a devDependency`);
  }
  assert.ok(packed.optionalDependencies['better-sqlite3'], 'better-sqlite3 stays an optional dependency');
  const schema = JSON.parse(readFileSync(join(project, 'node_modules/weir/schema/config.schema.json'), 'utf8'));
  assert.is(schema.$id, 'https://weir.dev/schema/config.schema.json');
});

test('import and require work without the optional packages', () => {
  const check = 'typeof m.createWeir + " " + typeof m.defineNode';
  assert.is(run(`const m = await import('weir'); console.log(${check}); await import('ioredis').catch((e) => console.log(e.code))`, 'module'), 'function function\nERR_MODULE_NOT_FOUND');
  assert.is(run(`const m = require('weir'); console.log(${check})`, 'commonjs'), 'function function');
  assert.is(run(`import('weir/schema/config.schema.json', { with: { type: 'json' } }).then((m) => console.log(m.default.title))`, 'commonjs'), 'weir home configuration');
});

// What an embedder uses, and nothing the package builds itself from (createExecutor, flowChecks, tooLarge...).
const PUBLIC_VALUES = [
  'CODES', 'Suspend', 'WeirError', 'createHost', 'createWeir', 'defineNode', 'defineTrigger', 'onAbort',
  'postCallSignature', 'twilioSignature', 'verifyPostCallSignature', 'verifyTwilioSignature',
];
const INTERNAL = ['createExecutor', 'createHooks', 'flowChecks', 'createMasker', 'allowedEnv', 'createSandbox', 'createExpressions', 'createMount', 'openStorage', 'loadConfig', 'resolveHome', 'logBus', 'tooLarge', 'encodeResponse', 'splitUrl', 'mediaType', 'errorResponse', 'toExit', 'toHttp', 'toJson', 'DEFAULT_MAX_BODY', 'DEFAULT_PORT'];

test('the public entry exports exactly what an embedder uses, as ESM and CommonJS, and declares no internal factory', () => {
  const names = 'console.log(Object.keys(m).sort().join(" "))';
  assert.is(run(`const m = await import('weir'); ${names}`, 'module'), PUBLIC_VALUES.join(' '), 'ESM');
  assert.is(run(`const m = require('weir'); ${names}`, 'commonjs'), PUBLIC_VALUES.join(' '), 'CommonJS');
  // The declarations: every `export { ... }` name of dist/index.d.ts (values and types).
  const declared = readFileSync(join(project, 'node_modules/weir/dist/index.d.ts'), 'utf8');
  const exported = [...declared.matchAll(/^export (?:type )?\{([^}]*)\}/gm)].flatMap((m) => m[1].split(',').map((n) => n.trim().split(/\s+as\s+/).pop()!.replace(/^type /, '')));
  for (const name of [...PUBLIC_VALUES, 'FlowConfig', 'NodeContext', 'TriggerRuntime', 'ExecutionRecord', 'WorkflowConfig', 'WeirConfig', 'Kv', 'Tables', 'ErrorCode']) assert.ok(exported.includes(name), `${name} is declared`);
  for (const name of INTERNAL) assert.not.ok(exported.includes(name), `${name} is not public`);
});

test('a redis storage config fails at createWeir with UNAVAILABLE naming ioredis and how to install it', () => {
  const attempt = (load: string) => `${load}.createWeir({ config: { storage: { cloud: { driver: 'redis', url: 'redis://127.0.0.1:1' } } } })
    .then(() => console.log('opened'), (e) => console.log(JSON.stringify({ code: e.code, message: e.message, hints: e.hints })))`;
  for (const [load, type] of [['(await import("weir"))', 'module'], ['require("weir")', 'commonjs']] as const) {
    const error = JSON.parse(run(attempt(load), type));
    assert.is(error.code, 'UNAVAILABLE', type);
    assert.match(error.message, 'Redis storage');
    assert.match(error.message, 'install ioredis (npm install ioredis)');
    assert.equal(error.hints, ['npm install ioredis']);
  }
});

test('the adapters share the public entry: a WeirError of require("weir") keeps its status behind require("weir/node-http")', () => {
  // A host whose handler throws the entry's WeirError: with a second copy of the class inside the adapter it
  // would be an unknown error, a 500.
  const code = `const { WeirError } = require('weir'); const { createListener } = require('weir/node-http'); const http = require('node:http');
    const host = { start: async () => ({ replayed: 0 }), close: async () => {}, owns: () => true, triggers: new Map(),
      handle: async () => { throw new WeirError('FORBIDDEN', 'no entry'); } };
    const listener = createListener({ config: {} }, { host });
    const server = http.createServer(listener).listen(0, '127.0.0.1', async () => {
      const res = await fetch('http://127.0.0.1:' + server.address().port + '/x');
      console.log(res.status, JSON.stringify(await res.json()));
      server.close(); await listener.close();
    });`;
  assert.is(run(code, 'commonjs'), '403 {"error":{"code":"FORBIDDEN","message":"no entry"}}');
});

test('both adapters load as ESM and CommonJS with their shared lifecycle: answered before close(), 503 after', () => {
  const code = (load: (name: string) => string) => `(async () => {
    const { createFetchHandler } = ${load('weir/fetch')}; const { createListener } = ${load('weir/node-http')}; const http = ${load('node:http')};
    const host = () => ({ start: async () => ({ replayed: 0 }), close: async () => {}, owns: () => true, triggers: new Map(),
      handle: async () => ({ status: 200, body: { ok: true } }) });
    const handler = createFetchHandler({ config: {} }, { host: host() });
    const before = await handler(new Request('http://weir.test/x'));
    await handler.close();
    const after = await handler(new Request('http://weir.test/x'));
    const listener = createListener({ config: {} }, { host: host() });
    const server = http.createServer(listener).listen(0, '127.0.0.1', async () => {
      const url = 'http://127.0.0.1:' + server.address().port + '/x';
      const open = await fetch(url);
      await listener.close();
      const closed = await fetch(url);
      console.log(before.status, after.status, open.status, closed.status);
      server.close();
    });
  })()`;
  assert.is(run(code((name) => `(await import('${name}'))`), 'module'), '200 503 200 503', 'ESM');
  assert.is(run(code((name) => `require('${name}')`), 'commonjs'), '200 503 200 503', 'CommonJS');
});

test.run();
