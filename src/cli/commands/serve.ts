import { WeirError } from '../../errors.js';
import { scheduleSharing } from '../../cluster/claims.js';
import { DEFAULT_PORT, clearServeInfo, readServeInfo, writeServeInfo } from '../../host/serve-info.js';
import { capYoungGeneration } from '../../host/young-generation.js';
import { logBus } from '../../logging/bus-log.js';
import { LOG_FORMATS, LOG_LEVELS, createLogger, type LogFormat, type LogLevel, type WeirLogger } from '../../logging/logger.js';
import { readUserFile } from '../read-input.js';
import { NOTHING_PUBLISHED, flowLine, followPublished, type FlowEntry } from '../serve-flows.js';
import type { CommandSpec } from '../types.js';

const usage = (message: string) => new WeirError('USAGE', message, { hints: ['run `weir serve --help`'] });
/** The adapter's listen failure keeps the system error as its cause. */
const portInUse = (err: unknown) => ((err as Error)?.cause as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';

/** Resolves on the first SIGTERM or SIGINT; a second one ends the process at once. */
function untilSignal(): Promise<string> {
  return new Promise((resolve) => {
    const onSignal = (signal: string) => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
      const force = () => process.exit(1);
      process.once('SIGTERM', force);
      process.once('SIGINT', force);
      resolve(signal);
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}

/** Host errors (a request or job that failed outside any execution) as log lines; the stack with WEIR_DEBUG=1. */
const hostErrors = (logger: WeirLogger, withStack: boolean) => (err: unknown) =>
  logger.error({ error: (err as Error)?.message ?? String(err), ...(withStack && err instanceof Error ? { stack: err.stack } : {}) }, 'host error');

/**
 * The published flows under the listen line, one indented line each (or one saying how to publish); with
 * JSON output (`out` null) a `published flow` log line each. Left out above `info` (`--quiet`).
 */
function showPublished(entries: FlowEntry[], logger: WeirLogger, out: { write(s: string): unknown } | null): void {
  if (!logger.isLevelEnabled('info')) return;
  if (out) return void out.write(entries.length ? entries.map((e) => `  ${flowLine(e)}\n`).join('') : `  ${NOTHING_PUBLISHED}\n`);
  if (!entries.length) logger.info({}, NOTHING_PUBLISHED);
  for (const e of entries) logger.info(e, 'published flow');
}

/** Runs every shutdown step even when one fails; each failure is logged, and then the command fails. */
async function shutDown(logger: WeirLogger, steps: Array<() => Promise<unknown>>): Promise<void> {
  let failed = 0;
  for (const step of steps) {
    await step().catch((err: unknown) => {
      failed++;
      logger.error({ error: (err as Error)?.message ?? String(err) }, 'shutdown error');
    });
  }
  if (failed) throw new WeirError('INTERNAL', `the host stopped with ${failed} shutdown error${failed === 1 ? '' : 's'} (logged above)`);
  logger.info({}, 'stopped');
}

/** `weir serve`: the HTTP host in the foreground until SIGTERM/SIGINT. */
export const serve: CommandSpec = {
  name: 'serve',
  summary: 'run the HTTP host: webhooks, interface events, interfaces and schedules',
  flags: {
    port: { type: 'number', summary: 'port to listen on (default 8787; 0 picks a free one)', placeholder: 'n' },
    host: { type: 'string', summary: 'interface to bind (default 127.0.0.1)', placeholder: 'host' },
    'public-url': { type: 'string', summary: 'URL the host is reached at from outside (webhook URLs, signatures)', placeholder: 'url' },
    'tls-cert': { type: 'string', summary: 'PEM certificate file: serve HTTPS (with --tls-key)', placeholder: 'file' },
    'tls-key': { type: 'string', summary: 'PEM private key file', placeholder: 'file' },
    'max-body': { type: 'number', summary: 'request body limit in bytes (default 1048576)', placeholder: 'bytes' },
    role: {
      type: 'string',
      summary: 'all (default), intake or worker: with `queue` configured intake hosts answer and enqueue, workers run executions (no HTTP port unless --port, then /healthz only)',
      placeholder: 'role',
    },
    'log-level': { type: 'string', summary: 'trace, debug, info (default), warn, error or silent: executions that fail log at error, each other execution end at info', placeholder: 'level' },
    quiet: { type: 'boolean', summary: 'only the listen line, warnings and errors (= --log-level warn): no published flows, no line per execution' },
    'log-format': { type: 'string', summary: 'text (default; json with --json) or json: one pino JSON object a line', placeholder: 'format' },
  },
  async run(ctx) {
    const { flags, io } = ctx;
    const port = flags.port ?? DEFAULT_PORT;
    if (!Number.isInteger(port) || port < 0 || port > 65535) throw usage(`--port must be a whole number from 0 to 65535, got ${flags.port}`);
    const maxBody = flags['max-body'];
    if (maxBody !== undefined && !(Number.isInteger(maxBody) && maxBody > 0)) throw usage(`--max-body must be a positive number of bytes, got ${maxBody}`);
    if (!!flags['tls-cert'] !== !!flags['tls-key']) throw usage('--tls-cert and --tls-key go together');
    const publicUrl: string | undefined = flags['public-url'];
    if (publicUrl !== undefined && !/^https?:\/\/[^/\s]+/i.test(publicUrl)) throw usage(`--public-url must be an http(s) URL, got "${publicUrl}"`);
    const tls = flags['tls-cert']
      ? { cert: await readUserFile(io.cwd, flags['tls-cert']), key: await readUserFile(io.cwd, flags['tls-key']) }
      : undefined;

    const role = flags.role ?? 'all';
    if (!['all', 'intake', 'worker'].includes(role)) throw usage(`--role must be all, intake or worker, got "${role}"`);

    if (flags.quiet && flags['log-level'] !== undefined) throw usage('--quiet is --log-level warn: give one of them');
    const level = (flags['log-level'] ?? (flags.quiet ? 'warn' : 'info')) as LogLevel;
    if (!LOG_LEVELS.includes(level)) throw usage(`--log-level must be one of ${LOG_LEVELS.join(', ')}, got "${level}"`);
    const format = (flags['log-format'] ?? (ctx.json ? 'json' : 'text')) as LogFormat;
    if (!LOG_FORMATS.includes(format)) throw usage(`--log-format must be text or json, got "${format}"`);
    const logger = createLogger({ level, format, stream: io.stdout });
    // The ready line is printed whatever the level (tools wait for it), as JSON when the logs are JSON.
    const machine = ctx.json || format === 'json';

    const weir = await ctx.weir();
    capYoungGeneration();
    logBus(weir.bus, logger);
    const onError = hostErrors(logger, io.env.WEIR_DEBUG === '1');
    const { joinQueue } = await import('../../queue/roles.js');
    const part = await joinQueue(weir, role, onError);
    // A worker takes jobs and fires schedules; it opens a port (for /healthz) only when asked to.
    const worker = role === 'worker' ? (await import('../../queue/worker-host.js')).workerHost(weir, { onError }) : undefined;
    if (worker && flags.port === undefined) {
      await worker.start();
      ctx.noteNewHome();
      io.stdout.write(machine ? `${JSON.stringify({ role, url: null, pid: process.pid, concurrency: part!.concurrency })}\n` : `weir worker ready: running queued executions, ${part!.concurrency} at once\n`);
      logger.info({}, scheduleSharing(weir));
      const signal = await untilSignal();
      logger.info({ signal }, 'stopping: finishing executions in flight');
      return shutDown(logger, [() => worker.close(), () => part!.close()]);
    }
    const { serve: start } = await import('../../../adapters/node-http/index.js');
    // Made once the URL is known; publishes the host's watch sees before then are in its first listing.
    let flows: ReturnType<typeof followPublished> | undefined;
    const serving = await start(weir, {
      port,
      hostname: flags.host ?? '127.0.0.1',
      tls,
      maxBody,
      publicUrl,
      onError,
      onFlowsChanged: () => flows?.changed(),
      ...(worker ? { host: worker } : {}),
    }).catch((err: unknown) => {
      throw portInUse(err) ? new WeirError('UNAVAILABLE', `port ${port} is already in use (another weir serve?); pick another with --port <n>`) : err;
    });
    const shownPublic = (publicUrl ?? weir.config.publicUrl)?.replace(/\/+$/, '');
    const other = readServeInfo(ctx.home);
    await writeServeInfo(ctx.home, { pid: process.pid, url: serving.url, ...(shownPublic ? { publicUrl: shownPublic } : {}) });
    ctx.noteNewHome();
    if (machine) io.stdout.write(`${JSON.stringify({ url: serving.url, publicUrl: shownPublic ?? null, pid: process.pid })}\n`);
    else io.stdout.write(`weir listening on ${serving.url}${shownPublic ? ` (public URL ${shownPublic})` : ''}\n`);
    // A worker's port answers /healthz only: its flows are reached through the intake hosts.
    if (!worker) {
      flows = followPublished({ workflows: weir.workflows, nodes: weir.nodes, base: shownPublic ?? serving.url, logger, onError });
      showPublished(await flows.start(), logger, machine ? null : io.stdout);
    }
    if (other && other.pid !== process.pid) logger.info({}, `another weir serve (pid ${other.pid}, ${other.url}) runs on this home; schedules are shared with it`);
    logger.info({}, scheduleSharing(weir));

    const signal = await untilSignal();
    logger.info({ signal }, 'stopping: finishing requests and executions in flight');
    return shutDown(logger, [() => serving.close(), async () => part?.close(), () => clearServeInfo(ctx.home, process.pid)]);
  },
};
