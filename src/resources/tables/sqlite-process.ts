import { type ChildProcess, fork } from 'node:child_process';
import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type ErrorCode, WeirError } from '../../errors.js';
import { queryTimeout } from './limits.js';
import type { SqlReply, SqlRequest } from './sqlite-child.js';
import type { SqliteChoice } from './sqlite-driver.js';
import type { ExecResult, QueryLimits, Row } from './types.js';

// The SQL process's script sits beside this module: sqlite-child.ts in the sources, sqlite-child.js or .cjs
// in the build (the build puts every entry and chunk in one folder).
const here = fileURLToPath(import.meta.url);
const SCRIPT = join(dirname(here), `sqlite-child${extname(here)}`);
// The built script runs on plain Node: the host's own flags could run the host's code again (`node -e`) or
// claim its debugger port. The sources need the loader the host runs them with (tsx).
const EXEC_ARGV = extname(here) === '.ts' ? process.execArgv : [];

const cancelled = (signal: AbortSignal) => (signal.reason instanceof WeirError ? signal.reason : new WeirError('CANCELLED', 'the SQL statement was cancelled'));

/**
 * The process that runs user statements on one SQLite file: forked on first use, one statement at a time,
 * ended (SIGKILL) when a statement passes its time limit or its caller gives up, and forked again for the
 * next one. The host never blocks on SQL and only receives results within the caps; the process ends by itself
 * when the host does, however the host ended.
 * @example
 * const sql = createSqlProcess({ file: '/srv/weir/tables.sqlite' })
 * const { rows } = await sql.run({ sql: 'SELECT 1 AS x', params: [], system: [] }, limits)
 */
export function createSqlProcess({ file, driver }: { file: string; driver?: SqliteChoice }) {
  let child: ChildProcess | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  let seq = 0;

  function start(): ChildProcess {
    const c = fork(SCRIPT, driver ? [file, String(process.pid), driver] : [file, String(process.pid)], { serialization: 'advanced', execArgv: EXEC_ARGV, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    c.on('exit', () => child === c && (child = undefined));
    c.on('error', () => {}); // a failed start shows as 'exit' to the request waiting on it
    return c;
  }

  /** While no statement is waiting, the process must not keep the host alive. */
  const hold = (c: ChildProcess, on: boolean) => {
    if (on) (c.ref(), c.channel?.ref());
    else (c.unref(), c.channel?.unref());
  };

  const stop = (c: ChildProcess) => {
    if (child === c) child = undefined;
    c.kill('SIGKILL');
  };

  function dispatch(req: Omit<SqlRequest, 'id' | 'limits'>, limits: QueryLimits, signal?: AbortSignal): Promise<ExecResult> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(cancelled(signal));
      const c = (child ??= start());
      const id = ++seq;
      const rows: Row[] = [];
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        c.off('message', onMessage);
        c.off('exit', onExit);
        hold(c, false);
        settle();
      };
      const onMessage = (m: SqlReply) => {
        if (m.id !== id) return;
        if ('rows' in m) for (const r of m.rows) rows.push(r);
        else if ('done' in m) finish(() => resolve({ ...m.done, rows: rows.length ? rows.concat(m.done.rows) : m.done.rows }));
        else finish(() => reject(new WeirError(m.error.code as ErrorCode, m.error.message, { hints: m.error.hints })));
      };
      const onExit = (code: number | null, sig: string | null) =>
        finish(() => reject(new WeirError('STORAGE', `the SQL process ended unexpectedly (${sig ?? `exit code ${code}`}) while running the statement`)));
      const kill = (err: WeirError) => {
        finish(() => reject(err));
        stop(c);
      };
      const onAbort = () => kill(cancelled(signal!));
      const timer = setTimeout(() => kill(queryTimeout(limits.timeoutMs)), limits.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      c.on('message', onMessage);
      c.on('exit', onExit);
      hold(c, true);
      c.send({ ...req, id, limits: { maxRows: limits.maxRows, maxBytes: limits.maxBytes } } satisfies SqlRequest);
    });
  }

  return {
    /** Runs one statement, after the ones already waiting. */
    run(req: Omit<SqlRequest, 'id' | 'limits'>, limits: QueryLimits, signal?: AbortSignal): Promise<ExecResult> {
      const turn = queue.then(() => dispatch(req, limits, signal));
      queue = turn.catch(() => {});
      return turn;
    },
    /** Ends the process (a statement still running fails). */
    close(): void {
      if (child) stop(child);
    },
  };
}
