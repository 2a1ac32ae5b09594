// Shared helpers of the scale-out suite: real Redis and PostgreSQL (test/scale/services.mjs makes sure they
// run), one key prefix and one schema per test file, `weir serve` hosts as child processes.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import type { WeirConfig } from '../../src/index.js';
import { CLI, cli, tmpDir, writeJson } from '../_utils.js';

export const REDIS_URL = process.env.WEIR_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
export const PG_URL = process.env.WEIR_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
/** Every host of a cluster needs the same key to read secrets another host sealed. */
export const MASTER_KEY = randomBytes(32).toString('hex');

/** A unique prefix (Redis keys, BullMQ queue, PostgreSQL schema) for one test file. */
export const uniqueName = (tag: string) => `weirt_${tag}_${Date.now().toString(36)}_${randomBytes(3).toString('hex')}`;

export interface ClusterSpec {
  prefix: string;
  /** Use PostgreSQL tables in this schema. */
  schema?: string;
  /** Add the BullMQ execution queue. */
  queue?: { concurrency?: number; stalledMs?: number };
}

/** The `weir.config.json` of a cluster member. */
export const clusterConfig = (spec: ClusterSpec): WeirConfig => ({
  storage: { cloud: { driver: 'redis', url: REDIS_URL, base: spec.prefix } },
  ...(spec.schema ? { tables: { driver: 'postgres' as const, url: PG_URL, schema: spec.schema } } : {}),
  ...(spec.queue ? { queue: { driver: 'bullmq' as const, url: REDIS_URL, prefix: spec.prefix, ...spec.queue } } : {}),
  executions: { maxPerWorkflow: 100000 },
  // Flows may read which host ran them (`$env.WEIR_HOST_TAG`).
  env: { allow: ['WEIR_HOST_TAG'] },
});

/** A fresh home (own `local` drafts, shared `cloud`) of a cluster. */
export function clusterHome(spec: ClusterSpec): string {
  const home = tmpDir('weir-scale-');
  mkdirSync(home, { recursive: true });
  writeJson(home, 'weir.config.json', clusterConfig(spec));
  return home;
}

/** The CLI on a cluster home, with the cluster's master key. */
export const weirCli = (home: string, args: string[], input?: string) => cli(args, { home, env: { WEIR_MASTER_KEY: MASTER_KEY }, input });

export interface RunningHost {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>`, or null for a worker without a port. */
  url: string | null;
  output(): string;
  /** SIGTERM (graceful) or SIGKILL; resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts `weir serve` on a home and resolves once it says it is ready; `tag` becomes `$env.WEIR_HOST_TAG`. */
export function startHost(home: string, args: string[] = [], tag = ''): Promise<RunningHost> {
  const child = spawn(process.execPath, [CLI, '--home', home, 'serve', ...args], {
    cwd: home,
    env: { ...process.env, WEIR_HOME: '', WEIR_MASTER_KEY: MASTER_KEY, WEIR_DEBUG: '', WEIR_HOST_TAG: tag },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`weir serve did not start:\n${out}`)), 20000);
    const onData = (d: Buffer) => {
      out += d;
      const url = /listening on (http:\/\/\S+)/.exec(out)?.[1];
      if (!url && !/worker ready/.test(out)) return;
      clearTimeout(timer);
      resolve({
        child,
        url: url ?? null,
        output: () => out,
        async stop(signal = 'SIGTERM') {
          if (child.exitCode === null && child.signalCode === null) child.kill(signal);
          return exited;
        },
      });
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += d));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`weir serve exited with ${code}:\n${out}`));
    });
  });
}

/** Creates and publishes a flow through the CLI; returns its id and webhook token. */
export async function publishFlow(home: string, name: string, config: unknown): Promise<{ id: string; token: string }> {
  const created = await weirCli(home, ['workflows', 'create', name, '--json']);
  if (created.code !== 0) throw new Error(`create ${name}: ${created.stderr}`);
  const { id } = created.json();
  const file = writeJson(home, `${name}.json`, config);
  for (const args of [['workflows', 'save', id, file], ['workflows', 'publish', id]]) {
    const r = await weirCli(home, [...args, '--json']);
    if (r.code !== 0) throw new Error(`${args[1]} ${name}: ${r.stderr}`);
  }
  const details = (await weirCli(home, ['workflows', 'get', id, '--json'])).json();
  return { id, token: details.webhookToken };
}

/** Polls `check` until it returns a truthy value or the deadline passes (then throws with `what`). */
export async function until<T>(what: string, check: () => Promise<T | null | undefined | false>, ms = 30000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Removes every Redis key under a prefix. */
export async function dropRedisPrefix(prefix: string): Promise<void> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(REDIS_URL);
  try {
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 1000);
      cursor = next;
      if (keys.length) await redis.unlink(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
}

/** Drops a PostgreSQL schema and everything in it. */
export async function dropSchema(schema: string): Promise<void> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  } finally {
    await client.end();
  }
}
