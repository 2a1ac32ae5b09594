import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { WeirError } from './errors.js';

/** One storage mount: an unstorage driver name and its options. */
export interface MountConfig {
  driver: string;
  [option: string]: unknown;
}

/** The shape of `weir.config.json` in the home directory. Every field is optional. */
export interface WeirConfig {
  storage?: { local?: MountConfig; cloud?: MountConfig };
  tables?: { driver: 'sqlite' | 'postgres'; url?: string; [option: string]: unknown };
  /** The execution queue of several hosts (`stalledMs`: how long a dead worker's job stays locked, default 30000). */
  queue?: { driver: 'bullmq'; url?: string; prefix?: string; concurrency?: number; stalledMs?: number };
  publicUrl?: string;
  network?: { deny?: string[] };
  env?: { allow?: string[] };
  executions?: { retentionDays?: number; maxPerWorkflow?: number };
  /** Webhook intake: a delivery whose execution crashed the host `maxCrashes` times (default 3) is not replayed. */
  intake?: { maxCrashes?: number };
  /** Limits of the Code node sandbox: CPU ms per run (default 1000) and memory MB (default 32). */
  sandbox?: { cpuMs?: number; memoryMb?: number };
  providers?: {
    voice?: 'local' | 'elevenlabs';
    /** `timeoutMs`: how long one provider request may take (default 15000). */
    elevenlabs?: { baseUrl?: string; timeoutMs?: number };
    twilio?: { baseUrl?: string; timeoutMs?: number };
  };
  project?: { remote?: string; branch?: string };
  [key: string]: unknown;
}

export const CONFIG_FILE = 'weir.config.json';

/** The directory name of a home found or made in the working directory. */
export const HOME_DIR = '.weir';

/**
 * The home directory: the `--home` flag, else `WEIR_HOME`, else the nearest `.weir` directory in the working
 * directory or one of its parents (as git finds `.git`, so commands run in a project's subfolder use the
 * project's home), else `./.weir`.
 * @example
 * resolveHome(undefined, {}, '/srv/shop/chat') // '/srv/shop/.weir' when that directory exists
 */
export function resolveHome(flag?: string, env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): string {
  const given = flag || env.WEIR_HOME;
  if (given) return resolve(cwd, given);
  for (let dir = resolve(cwd); ; ) {
    const candidate = join(dir, HOME_DIR);
    if (isDirectory(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) return resolve(cwd, HOME_DIR);
    dir = parent;
  }
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** Reads `weir.config.json` from the home; a missing file is an empty config, a broken one an error. */
export function loadConfig(home: string): WeirConfig {
  const file = join(home, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new WeirError('INVALID_CONFIG', `cannot read ${file}: ${(err as Error).message}`);
  }
  try {
    const parsed = JSON.parse(text);
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) throw new Error('expected a JSON object');
    return parsed as WeirConfig;
  } catch (err) {
    throw new WeirError('INVALID_CONFIG', `${file} is not valid: ${(err as Error).message}`);
  }
}
