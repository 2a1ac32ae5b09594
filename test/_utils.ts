import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('..', import.meta.url));
/** The built CLI; WEIR_CLI points elsewhere (a helper's own build folder). */
export const CLI = process.env.WEIR_CLI ? join(ROOT, process.env.WEIR_CLI) : join(ROOT, 'dist/cli.js');

/** A fresh empty directory under the OS temp dir. */
export const tmpDir = (prefix = 'weir-test-'): string => mkdtempSync(join(tmpdir(), prefix));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
  json<T = any>(): T;
}

/**
 * No `weir` command of a test runs this long. One that does is a hang: once (CI, Node 20) a CLI sat idle in
 * its event loop with a finished file read never handed back, until an inspector's evaluation woke it.
 */
const CLI_LIMIT_MS = 120_000;

/** What a hung CLI's diagnostic report says of its event loop and JavaScript stack (the report is in `dir`). */
function hangReport(dir: string, pid: number | undefined): string {
  const file = readdirSync(dir, { withFileTypes: true }).find((f) => f.name.includes(`.${pid}.`));
  if (!file) return `(no report of pid ${pid} in ${dir})`;
  const report = JSON.parse(readFileSync(join(dir, file.name), 'utf8'));
  return `report ${join(dir, file.name)}:\n${JSON.stringify({ javascriptStack: report.javascriptStack, libuv: report.libuv }, null, 1)}`;
}

/**
 * Runs the real `weir` binary in a subprocess, as a user would. One still running after {@link CLI_LIMIT_MS}
 * is asked for a Node diagnostic report (SIGUSR2: its libuv handles and stacks), killed, and fails the test
 * with where the report is, rather than holding the suite until CI's own limit.
 */
export function cli(
  args: string[],
  opts: { home?: string; cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<CliRun> {
  const argv = opts.home ? ['--home', opts.home, ...args] : args;
  const reports = join(tmpdir(), 'weir-cli-reports');
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--report-on-signal', `--report-directory=${reports}`, CLI, ...argv], {
      cwd: opts.cwd ?? opts.home ?? ROOT,
      env: { ...process.env, WEIR_HOME: '', WEIR_DEBUG: '', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let hung = false;
    const watchdog = setTimeout(() => {
      hung = true;
      mkdirSync(reports, { recursive: true });
      child.kill('SIGUSR2');
      setTimeout(() => child.kill('SIGKILL'), 2000).unref();
    }, CLI_LIMIT_MS);
    watchdog.unref();
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(watchdog);
      if (hung) return reject(new Error(`weir ${argv.join(' ')} still ran after ${CLI_LIMIT_MS / 1000} s; stderr:\n${stderr}\n${hangReport(reports, child.pid)}`));
      resolve({
        code,
        stdout,
        stderr,
        json() {
          try {
            return JSON.parse(stdout);
          } catch {
            throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
          }
        },
      });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/**
 * Runs a `weir` command in this process (the CLI's own `runCli`, no Node start-up of ~0.3-0.5 s): for the
 * setup steps of a test where the `weir` process itself is not what is tested. Same options and answer as {@link cli}.
 */
export async function cliInProcess(
  args: string[],
  opts: { home?: string; cwd?: string; env?: Record<string, string>; input?: string } = {},
): Promise<CliRun> {
  const { runCli } = await import('../src/cli/run.js');
  const { Readable } = await import('node:stream');
  const argv = opts.home ? ['--home', opts.home, ...args] : args;
  let stdout = '';
  let stderr = '';
  const code = await runCli(argv, {
    stdout: { write: (s: string) => (stdout += s) },
    stderr: { write: (s: string) => (stderr += s) },
    stdin: Readable.from(opts.input ? [opts.input] : []),
    cwd: opts.cwd ?? opts.home ?? ROOT,
    env: { ...process.env, WEIR_HOME: '', WEIR_DEBUG: '', ...opts.env },
  });
  return {
    code,
    stdout,
    stderr,
    json() {
      try {
        return JSON.parse(stdout);
      } catch {
        throw new Error(`stdout is not JSON (exit ${code}):\n${stdout}\nstderr:\n${stderr}`);
      }
    },
  };
}

/** Writes a JSON file into `dir` and returns its path. */
export function writeJson(dir: string, name: string, value: unknown): string {
  const file = join(dir, name);
  writeFileSync(file, JSON.stringify(value, null, 2));
  return file;
}

/** A flow config with the given trigger and extra nodes/edges. */
export function flow(trigger: { type: string; config?: Record<string, unknown> }, nodes: any[] = [], edges: any[] = []) {
  return {
    nodes: [{ id: `${trigger.type}-1`, type: trigger.type, config: trigger.config ?? {} }, ...nodes],
    edges,
    variables: {},
    metadata: {},
  };
}

/** A running `weir serve --port 0` child on the home (text or JSON output; extra `env` on top of ours; another built `cli` than ours): its URL, its output so far, and a signal to stop it. */
export function startServe(home: string, args: string[] = [], env: Record<string, string> = {}, cli = CLI): Promise<{ url: string; child: ChildProcess; output(): string; stop(signal?: NodeJS.Signals): Promise<number | null> }> {
  const child = spawn(process.execPath, [cli, '--home', home, 'serve', '--port', '0', ...args], { env: { ...process.env, WEIR_HOME: '', WEIR_DEBUG: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`weir serve did not listen within 20 s:\n${out}`));
    }, 20_000);
    child.stdout!.on('data', (d) => {
      out += d;
      // The ready line: `weir listening on <url>`, or `{"url":"<url>",...}` when the output is JSON.
      const m = /listening on (https?:\/\/[\w.:[\]]+)|"url":"(https?:\/\/[\w.:[\]]+)"/.exec(out);
      const url = m?.[1] ?? m?.[2];
      if (!url) return;
      clearTimeout(timer);
      resolve({ url, child, output: () => out, stop: (signal = 'SIGTERM') => (child.exitCode !== null ? exited : (child.kill(signal), exited)) });
    });
    child.stderr!.on('data', (d) => (out += d));
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`weir serve exited (${code}) before listening:\n${out}`));
    });
  });
}

/**
 * A server of the test's own that counts POSTs by the `id` of their JSON body: how often each execution
 * reached it (a wake, a side effect), whatever host or worker sent it.
 */
export async function hitCounter() {
  const hits = new Map<string, number>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: string };
      hits.set(id, (hits.get(id) ?? 0) + 1);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { hits, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hit`, close: () => server.close() };
}

