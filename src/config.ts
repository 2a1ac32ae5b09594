import { readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import configSchema from '../schema/config.schema.json';
import { WeirError } from './errors.js';
import { jsonSyntaxProblem } from './util/json-syntax.js';
import { validateSchema, type JsonSchema } from './util/json-schema.js';
import type { NetworkSettings } from './util/network.js';

/**
 * One storage mount: an unstorage driver name and its options, which go to the driver as they are (`fs`:
 * `base`; `redis`: `url`, `base`, `ttl` and ioredis options; any other unstorage driver: its own).
 */
export interface MountConfig {
  driver: string;
  base?: string;
  url?: string;
  [option: string]: unknown;
}

/** A telephony or voice provider's API: another base URL (a proxy, a test server) and a request time limit. */
export interface ProviderConfig {
  baseUrl?: string;
  /** How long one provider request may take (default 15000). */
  timeoutMs?: number;
}

/**
 * The language model of agent nodes (`providers.llm`). `baseUrl` is the server's origin (optionally with a
 * path prefix); the driver adds `/v1/...` unless the URL already ends in `/v1`, so both
 * `http://127.0.0.1:11434` and the `http://127.0.0.1:11434/v1` of Ollama's docs work.
 */
export interface LlmConfig {
  /** `openai`: the chat-completions wire format (OpenAI, Ollama, vLLM, llama.cpp, LM Studio); `anthropic`: the Messages API. */
  driver: 'openai' | 'anthropic';
  /** Default `https://api.openai.com` / `https://api.anthropic.com`. */
  baseUrl?: string;
  /** The model agent nodes use unless a node sets its own. */
  model: string;
  /** How long one model call may take (default 120000). */
  timeoutMs?: number;
  /** How many times a call answered 429 or 5xx is retried, honouring `Retry-After` (default 3). */
  maxRetries?: number;
  /** The most tokens one answer may take: Anthropic's required `max_tokens` (default 4096); sent to openai servers only when set. */
  maxTokens?: number;
}

/**
 * The shape of `weir.config.json` in the home directory (`schema/config.schema.json`, exported as
 * `weir/schema/config.schema.json`, says the same for editors). Every field is optional; unknown keys are
 * refused everywhere but inside a storage mount.
 */
export interface WeirConfig {
  /** Editors' pointer to the schema; weir ignores it. */
  $schema?: string;
  storage?: { local?: MountConfig; cloud?: MountConfig };
  /** The table engine: embedded SQLite (default, `file` relative to the home) or PostgreSQL (`url`, `schema`, `poolSize`). */
  tables?: {
    driver?: 'sqlite' | 'postgres';
    file?: string;
    /** The SQLite driver (default: node:sqlite where Node has it, else better-sqlite3). */
    sqlite?: 'node' | 'better-sqlite3';
    url?: string;
    schema?: string;
    poolSize?: number;
    /** Caps of one query result, and how long one query may run. */
    maxRows?: number;
    maxBytes?: number;
    timeoutMs?: number;
  };
  /** The execution queue of several hosts (`stalledMs`: how long a dead worker's job stays locked, default 30000). */
  queue?: { driver: 'bullmq'; url?: string; prefix?: string; concurrency?: number; stalledMs?: number };
  /** The Redis hosts coordinate through when neither `queue.url` nor a redis `cloud` mount names one. */
  cluster?: { url?: string; prefix?: string };
  publicUrl?: string;
  /** Outgoing requests of `http_request`: CIDR ranges to block (`deny`) and to re-open (`allow`). */
  network?: NetworkSettings;
  env?: { allow?: string[] };
  /**
   * Retention of execution records; and the execution limiter of each process: executions running at once
   * (`concurrency`, default 64) and waiting ones above which triggers hold back (`maxBacklog`, default 5000).
   */
  executions?: { retentionDays?: number; maxPerWorkflow?: number; concurrency?: number; maxBacklog?: number };
  /**
   * Limits of the Code node sandbox: time per run in ms, `$crypto` and `console` included (default 1000),
   * memory in MB (default 32), the return value in bytes of JSON (default 4 MiB) and how many worker
   * threads run Code nodes (default: the number of cores).
   */
  sandbox?: { cpuMs?: number; memoryMb?: number; workers?: number; maxOutputBytes?: number };
  providers?: { voice?: 'local' | 'elevenlabs'; elevenlabs?: ProviderConfig; twilio?: ProviderConfig; llm?: LlmConfig };
  project?: { id?: string; remote?: string; branch?: string; username?: string };
  /** Durable trigger deliveries: how many times one may crash the host before it is not replayed (default 3). */
  intake?: { maxCrashes?: number };
  /**
   * What a caller waiting on a failed flow (webhook `respondImmediately: false`, `POST /api/flows/<name>`) is
   * told: with `exposeErrors` (development only) the recorded error, failing node included, not "the flow failed".
   */
  webhook?: { exposeErrors?: boolean };
  /**
   * `GET /metrics` (Prometheus): on unless `enabled: false` (then nothing is counted and the path answers 404);
   * behind the host access token unless `public`; at most `maxWorkflows` workflow label values (default 100),
   * further flows counted under `_other`.
   */
  metrics?: { enabled?: boolean; public?: boolean; maxWorkflows?: number };
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

/** Reads `weir.config.json` from the home; a missing file is an empty config, a broken or invalid one an error. */
export function loadConfig(home: string): WeirConfig {
  const file = join(home, CONFIG_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new WeirError('INVALID_CONFIG', `cannot read ${file}: ${(err as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw new WeirError('INVALID_CONFIG', `${file} is not valid JSON: ${jsonSyntaxProblem(text, err)}`);
  }
  return checkConfig(parsed, file);
}

/**
 * Checks a configuration against `schema/config.schema.json` and returns it typed. Every problem is listed,
 * one per line, as `<source>: <key path>: <problem>` (`source`: the file, or what handed the object over).
 * @example
 * const config = checkConfig(JSON.parse(text), '/srv/weir/weir.config.json')
 */
export function checkConfig(config: unknown, source: string): WeirConfig {
  const problems = validateSchema(config, configSchema as JsonSchema);
  if (!problems.length) return config as WeirConfig;
  const lines = problems.map((p) => `${source}: ${p.path ? `${p.path}: ` : ''}${p.message}`);
  throw new WeirError('INVALID_CONFIG', lines.join('\n'), {
    details: problems,
    hints: ['the keys weir reads are described in weir/schema/config.schema.json'],
  });
}
