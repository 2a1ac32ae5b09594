#!/usr/bin/env node
// Makes sure the scale-out suite has Redis and PostgreSQL on loopback. A service that answers is used as
// is (a managed one too: WEIR_TEST_REDIS_URL / WEIR_TEST_PG_URL point elsewhere). A local one that does not
// answer is started from the OS packages, installed with apt-get first when missing and we are root;
// otherwise this says exactly what is missing and exits 1.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import net from 'node:net';

const REDIS_URL = process.env.WEIR_TEST_REDIS_URL || 'redis://127.0.0.1:6379';
const PG_URL = process.env.WEIR_TEST_PG_URL || 'postgres://postgres@127.0.0.1:5432/postgres';

const isRoot = process.getuid?.() === 0;
const log = (line) => console.log(`services: ${line}`);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const run = (cmd, args, opts = {}) => spawnSync(cmd, args, { stdio: 'inherit', ...opts }).status === 0;
const has = (bin) => spawnSync('sh', ['-c', `command -v ${bin}`], { stdio: 'ignore' }).status === 0;
const isLoopback = (url) => ['127.0.0.1', 'localhost', '::1', '[::1]'].includes(new URL(url).hostname);

/** Sends a Redis PING over a raw socket: true when it answers PONG (or asks for a password). */
function pingRedis(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname.replace(/^\[|\]$/g, ''), port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(2000, () => done(false));
    socket.on('error', () => done(false));
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (d) => done(/^\+PONG|^-NOAUTH/.test(d.toString())));
  });
}

/** Connects with the `pg` client: null when it works, else the error message. */
async function checkPg(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (err) {
    return err.message || String(err.code || err);
  } finally {
    await client.end().catch(() => {});
  }
}

async function waitFor(check, ms = 20000) {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await sleep(250);
  }
  return false;
}

let aptUpdated = false;
function aptInstall(pkg) {
  if (!isRoot || !has('apt-get')) return false;
  log(`installing ${pkg} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  if (!aptUpdated) aptUpdated = run('apt-get', ['update', '-qq'], { env });
  return run('apt-get', ['install', '-y', '-qq', pkg], { env });
}

async function ensureRedis() {
  if (await pingRedis(REDIS_URL)) return log(`redis answers at ${REDIS_URL}`), null;
  if (!isLoopback(REDIS_URL)) return `Redis does not answer at ${REDIS_URL} (WEIR_TEST_REDIS_URL)`;
  if (!has('redis-server') && !aptInstall('redis-server')) {
    return `Redis is not running on ${REDIS_URL} and redis-server is not installed: run \`apt-get install redis-server\` as root (or set WEIR_TEST_REDIS_URL to a running Redis)`;
  }
  const port = new URL(REDIS_URL).port || '6379';
  log(`starting redis-server on 127.0.0.1:${port}`);
  run('redis-server', ['--daemonize', 'yes', '--bind', '127.0.0.1', '--port', port, '--save', '', '--appendonly', 'no']);
  return (await waitFor(() => pingRedis(REDIS_URL))) ? null : `redis-server was started but does not answer at ${REDIS_URL}`;
}

async function ensurePg() {
  let problem = await checkPg(PG_URL);
  if (!problem) return log(`postgresql answers at ${PG_URL.replace(/:[^:@/]*@/, ':***@')}`), null;
  if (!isLoopback(PG_URL)) return `PostgreSQL at ${PG_URL} (WEIR_TEST_PG_URL): ${problem}`;
  if (!/ECONNREFUSED|connect|timeout/i.test(problem)) {
    return `PostgreSQL answers on ${new URL(PG_URL).host} but refuses ${PG_URL}: ${problem}. Allow the user (e.g. a "host all all 127.0.0.1/32 trust" line in pg_hba.conf) or set WEIR_TEST_PG_URL=postgres://user:password@host:port/db`;
  }
  const clusters = () => (existsSync('/etc/postgresql') ? readdirSync('/etc/postgresql') : []);
  if (!clusters().length && !aptInstall('postgresql')) {
    return `PostgreSQL is not running on ${new URL(PG_URL).host} and is not installed: run \`apt-get install postgresql\` as root (or set WEIR_TEST_PG_URL to a running PostgreSQL)`;
  }
  const version = clusters().sort().at(-1);
  if (!isRoot) return `PostgreSQL ${version} is installed but not running: run \`pg_ctlcluster ${version} main start\` as root`;
  log(`starting postgresql ${version}`);
  run('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start']);
  const up = await waitFor(async () => {
    problem = await checkPg(PG_URL);
    return !problem || !/ECONNREFUSED|starting up/i.test(problem);
  });
  return up && !problem ? null : `PostgreSQL ${version} was started but ${PG_URL} does not work: ${problem}`;
}

const problems = (await Promise.all([ensureRedis(), ensurePg()])).filter(Boolean);
for (const p of problems) console.error(`services: missing: ${p}`);
process.exit(problems.length ? 1 : 0);
