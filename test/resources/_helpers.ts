import * as assert from 'uvu/assert';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tmpDir, type CliRun } from '../_utils.js';

/** A fresh home and a `weir` bound to it. */
export function home() {
  const dir = tmpDir('weir-data-');
  const weir = (...args: string[]) => cli(args, { home: dir, cwd: dir });
  return { dir, weir };
}

/** Asserts success and returns the run. */
export function ok(r: CliRun, what = ''): CliRun {
  assert.is(r.code, 0, `${what}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  return r;
}

/** Asserts exit 1 with an `error:` line matching `message`, nothing on stdout. */
export function fails(r: CliRun, message: RegExp | string, what = ''): CliRun {
  assert.is(r.code, 1, `${what}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
  assert.is(r.stdout, '', what);
  assert.match(r.stderr, /^error: /, what);
  assert.match(r.stderr, message, what);
  return r;
}

/** Asserts exit 1 under --json with the given stable error code. */
export function failsJson(r: CliRun, code: string, what = ''): void {
  assert.is(r.code, 1, `${what}\n${r.stderr}`);
  assert.is(r.stdout, '', what);
  assert.is(JSON.parse(r.stderr).error.code, code, what);
}

/** Every file under a directory, recursively. */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** Files under `dir` whose bytes contain `needle` (as UTF-8, and as base64 and hex too). */
export function filesContaining(dir: string, needle: string): string[] {
  const forms = [Buffer.from(needle), Buffer.from(Buffer.from(needle).toString('base64')), Buffer.from(Buffer.from(needle).toString('hex'))];
  return filesUnder(dir).filter((f) => {
    const bytes = readFileSync(f);
    return forms.some((form) => bytes.includes(form));
  });
}

/** Sets up state through the library on a home (fast), closing it before the CLI takes over. */
export async function seed(dir: string, fn: (weir: import('../../src/weir.js').Weir) => Promise<unknown>): Promise<void> {
  const { createWeir } = await import('../../src/weir.js');
  const weir = await createWeir({ home: dir });
  try {
    await fn(weir);
  } finally {
    await weir.close();
  }
}
