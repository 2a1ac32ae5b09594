// `npm test`: builds the package, runs every uvu suite under test/ (TypeScript through tsx), and ends with
// the plain "N passed, N failed" line. `node test/run.mjs <dir> [pattern]` narrows the run.
// Tests mirror the source: a module's tests are at the same path under test/ (src/storage -> test/storage,
// src/resources/kv -> test/resources/kv, adapters -> test/adapters); uvu finds *.test.ts at any depth.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [dir = 'test', pattern = '\\.test\\.ts$'] = process.argv.slice(2);

// The interface tests drive a real headless Chromium; on a machine without one, install Debian's package
// when we can (root with apt-get). Elsewhere those tests fail with a message naming the missing browser.
if (!process.env.WEIR_CHROMIUM && !existsSync('/usr/bin/chromium') && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get')) {
  spawnSync('bash', ['.ci/install-chromium.sh'], { cwd: root, stdio: 'inherit' });
}

// WEIR_OUT=dist-x builds to and tests that folder instead of dist/.
if (process.env.WEIR_OUT) process.env.WEIR_CLI = `${process.env.WEIR_OUT}/cli.js`;
if (!process.env.WEIR_SKIP_BUILD) {
  const build = spawnSync(process.execPath, ['node_modules/tsup/dist/cli-default.js', '--silent'], { cwd: root, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

// test/scale needs Redis and PostgreSQL: it runs only when named (`npm run test:scale`), never by default.
const ignore = dir === 'test' ? ['-i', '^scale'] : [];
const child = spawn(process.execPath, ['--import', 'tsx', 'node_modules/uvu/bin.js', dir, pattern, ...ignore, '--no-color'], {
  cwd: root,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, FORCE_COLOR: '0' },
});
let out = '';
child.stdout.on('data', (chunk) => {
  out += chunk;
  process.stdout.write(chunk);
});
child.on('close', (code, signal) => {
  // uvu ended before its summary (killed, or something in a test ended the process): say how, or nothing tells.
  if (!/Total:/.test(out)) console.error(`\nuvu ended without its summary: exit code ${code}, signal ${signal}`);
  const total = Number(/Total:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const passed = Number(/Passed:\s+(\d+)/.exec(out)?.[1] ?? 0);
  const skipped = Number(/Skipped:\s+(\d+)/.exec(out)?.[1] ?? 0);
  console.log(`\n${passed} passed, ${total - passed - skipped} failed${skipped ? `, ${skipped} skipped` : ''}`);
  process.exit(code ?? 1);
});
