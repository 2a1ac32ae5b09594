import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { WeirError } from '../errors.js';
import { findChromium } from './browser.js';
import { findServer, isAlive, listServers, removeRecord, serverFiles, serversDir, type ServerRecord } from './registry.js';

export interface LaunchOptions {
  home: string;
  /** Interface id (the record the child looks up). */
  interfaceId: string;
  name: string;
  /** Working directory of the child: where `./<name>/` is looked for. */
  cwd: string;
  port?: number;
  env: NodeJS.ProcessEnv;
  /** The `weir` CLI script and node flags to run it with (the current process's by default). */
  cli?: string;
  execArgv?: string[];
  /** How long the child may take to listen and open its browser. */
  timeoutMs?: number;
}

const until = (ms: number) => new Promise((r) => setTimeout(r, ms));

const lastLines = async (file: string, n = 8) =>
  (await readFile(file, 'utf8').catch(() => '')).trimEnd().split('\n').slice(-n).join('\n');

/**
 * Starts a preview as a detached process (`weir preview <id> --foreground`) whose output goes to
 * `<home>/devservers/<name>.log`, and waits until it has recorded itself (listening, browser page open).
 * An interface that already has a running preview gets that one back.
 * @example
 * const { record, started } = await launchPreview({ home, interfaceId: 'if_abc', name: 'shop', cwd, env: process.env })
 */
export async function launchPreview(options: LaunchOptions): Promise<{ record: ServerRecord; started: boolean }> {
  const running = await findServer(options.home, options.interfaceId);
  if (running) return { record: running, started: false };
  findChromium(options.env); // fail here, with the install hint, rather than in the detached child
  const files = serverFiles(options.home, options.name);
  mkdirSync(serversDir(options.home), { recursive: true, mode: 0o700 });
  const out = openSync(files.log, 'w');
  const argv = [...(options.execArgv ?? process.execArgv), options.cli ?? process.argv[1], 'preview', options.interfaceId, '--foreground', '--home', options.home];
  if (options.port !== undefined) argv.push('--port', String(options.port));
  const child = spawn(process.execPath, argv, { cwd: options.cwd, env: options.env, detached: true, stdio: ['ignore', out, out] });
  closeSync(out);
  const state = { exited: null as number | null };
  child.on('exit', (code) => (state.exited = code ?? 1));
  child.unref();

  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  while (Date.now() < deadline) {
    const record = await findServer(options.home, options.interfaceId);
    if (record && record.pid === child.pid) return { record, started: true };
    if (state.exited !== null) {
      throw new WeirError('UNAVAILABLE', `the preview of "${options.name}" stopped at start (exit ${state.exited})`, {
        hints: [`its log (${files.log}) ends with:\n${await lastLines(files.log)}`],
      });
    }
    await until(50);
  }
  // SIGTERM lets it close a browser it already opened (the browser runs in its own process group).
  if (child.pid) process.kill(child.pid, 'SIGTERM');
  for (const end = Date.now() + 5000; state.exited === null && Date.now() < end; ) await until(50);
  if (state.exited === null && child.pid) process.kill(child.pid, 'SIGKILL');
  throw new WeirError('TIMEOUT', `the preview of "${options.name}" did not start within ${(options.timeoutMs ?? 30_000) / 1000} s`, { hints: [`see its log: ${files.log}`] });
}

/**
 * Ends a preview: SIGTERM to the dev server (it closes its browser and removes its record), SIGKILL to both
 * after `graceMs` if they are still there.
 * @example
 * await stopPreview(home, 'shop')
 */
export async function stopPreview(home: string, ref: string, graceMs = 10_000): Promise<ServerRecord> {
  const record = await findServer(home, ref);
  if (!record) throw new WeirError('NOT_FOUND', `no preview runs for interface "${ref}"`, { hints: ['`weir servers` lists the running ones'] });
  process.kill(record.pid, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  while (isAlive(record.pid) && Date.now() < deadline) await until(50);
  for (const pid of [record.pid, record.browserPid]) {
    if (isAlive(pid)) process.kill(pid!, 'SIGKILL');
  }
  await removeRecord(home, record.interface);
  return record;
}

export { listServers };
