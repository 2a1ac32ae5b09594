// `npm test`: builds the package, runs every uvu suite under test/ (TypeScript through tsx), and ends with
// the plain "N passed, N failed" line. `node test/run.mjs <dir> [pattern]` narrows the run.
// Tests mirror the source: a module's tests are at the same path under test/ (src/storage -> test/storage,
// src/resources/kv -> test/resources/kv, adapters -> test/adapters); uvu finds *.test.ts at any depth.
// Files run in parallel, one per core (at most 4), each alone in a worker process (test/_worker.mjs) that
// takes the next file when it is done; a file's output is printed whole once it ends, with its time. The
// slowest files of the last run start first (as Jest does), so the run does not end waiting on one of them.
import { spawn, spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parse } from 'uvu/parse';

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

// test/scale needs Redis and PostgreSQL: it runs only when named (`npm run test:scale`), never by default;
// its files share those servers, so they run one at a time.
const ignore = dir === 'test' ? ['^scale'] : [];
const { suites } = await parse(dir, pattern, { cwd: root, ignore });
const scale = /(^|\/)scale(\/|$)/.test(dir);
const workers = Math.min(suites.length, scale ? 1 : Math.max(1, Math.min(4, availableParallelism())));
// What a worker writes after a file's output: no test prints it.
const END = `\n<end of file ${randomUUID()}>\n`;
const started = performance.now();
// Each file's seconds in the last run that ran it; files never timed count as slow, so they start early.
const TIMES = join(root, 'node_modules/.cache/weir-test-times.json');
const times = (() => {
  try {
    return JSON.parse(readFileSync(TIMES, 'utf8'));
  } catch {
    return {};
  }
})();
const timeOf = (suite) => times[relative(root, suite.file)] ?? Infinity;
const queue = [...suites].sort((a, b) => timeOf(b) - timeOf(a));
const totals = { total: 0, passed: 0, skipped: 0 };

/** Prints a file's output (uvu's per-file summary left out, what it wrote to stderr after) and counts it. */
function report({ name, file }, stdout, stderr, ended, seconds) {
  times[relative(root, file)] = seconds;
  const count = (label) => Number(new RegExp(`${label}:\\s+(\\d+)`).exec(stdout)?.[1] ?? 0);
  const total = count('Total');
  totals.total += Math.max(total, 1);
  totals.passed += total ? count('Passed') : 0;
  totals.skipped += count('Skipped');
  const shown = `${stdout.replace(/\n\s*Total:[\s\S]*$/, '').trim() || name}  ${seconds.toFixed(1)} s`;
  process.stdout.write(`${shown}\n${stderr.trim() ? `${stderr.trimEnd()}\n` : ''}${total ? '' : `   FAIL  ${ended}\n`}\n`);
}

/** A worker process running files from the queue until it is empty; a worker that dies is replaced. */
function work() {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'test/_worker.mjs', END], {
      cwd: root,
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, FORCE_COLOR: '0' },
    });
    let current = null;
    let since = 0;
    let out = '';
    let err = '';
    // What a worker printed after a file's end marker (a late log line of that file) counts to the next file.
    const after = (text) => (text.includes(END) ? text.slice(text.indexOf(END) + END.length) : text);
    const next = () => {
      current = queue.shift() ?? null;
      out = after(out);
      err = after(err);
      since = performance.now();
      if (current) child.stdin.write(`${JSON.stringify({ name: current.name, file: current.file })}\n`);
      else child.stdin.end();
    };
    const settle = () => {
      if (!current || !out.includes(END) || !err.includes(END)) return;
      report(current, out.slice(0, out.indexOf(END)), err.slice(0, err.indexOf(END)), '', (performance.now() - since) / 1000);
      next();
    };
    child.stdout.on('data', (d) => {
      out += d;
      settle();
    });
    child.stderr.on('data', (d) => {
      err += d;
      settle();
    });
    child.on('close', (code, signal) => {
      // The worker ended inside a file (something in a test ended the process): that file fails, the rest go on.
      if (current) {
        report(current, out, err, `the test process ended: exit code ${code}, signal ${signal}`, (performance.now() - since) / 1000);
        resolve(work());
      } else resolve();
    });
    next();
  });
}

await Promise.all(Array.from({ length: workers }, work));
mkdirSync(dirname(TIMES), { recursive: true });
writeFileSync(TIMES, JSON.stringify(times));
const failed = totals.total - totals.passed - totals.skipped;
console.log(`  Total:     ${totals.total}\n  Passed:    ${totals.passed}\n  Skipped:   ${totals.skipped}\n  Duration:  ${((performance.now() - started) / 1000).toFixed(1)}s (${workers} at a time)\n`);
console.log(`\n${totals.passed} passed, ${failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exit(failed ? 1 : 0);
