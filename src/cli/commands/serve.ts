import { WeirError } from '../../errors.js';
import { DEFAULT_PORT, clearServeInfo, writeServeInfo } from '../../host/serve-info.js';
import { capYoungGeneration } from '../../host/young-generation.js';
import { readUserFile } from '../read-input.js';
import type { CommandSpec } from '../types.js';

const usage = (message: string) => new WeirError('USAGE', message, { hints: ['run `weir serve --help`'] });

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

/** `weir serve` (CONTRACT 5): the HTTP host in the foreground until SIGTERM/SIGINT. */
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

    const weir = await ctx.weir();
    capYoungGeneration();
    const onError = (err: unknown) => io.stderr.write(`weir serve: ${io.env.WEIR_DEBUG === '1' ? ((err as Error)?.stack ?? err) : ((err as Error)?.message ?? err)}\n`);
    const { joinQueue } = await import('../../queue/roles.js');
    const part = await joinQueue(weir, role, onError);
    // A worker takes jobs and fires schedules; it opens a port (for /healthz) only when asked to.
    const worker = role === 'worker' ? (await import('../../queue/worker-host.js')).workerHost(weir, { onError }) : undefined;
    if (worker && flags.port === undefined) {
      await worker.start();
      ctx.noteNewHome();
      io.stdout.write(ctx.json ? `${JSON.stringify({ role, url: null, pid: process.pid, concurrency: part!.concurrency })}\n` : `weir worker ready: running queued executions, ${part!.concurrency} at once\n`);
      const signal = await untilSignal();
      if (!ctx.json) io.stdout.write(`weir: ${signal}: finishing executions in flight\n`);
      await worker.close();
      await part!.close();
      if (!ctx.json) io.stdout.write('weir: stopped\n');
      return;
    }
    const { serve: start } = await import('../../../adapters/node-http/index.js');
    const serving = await start(weir, {
      port,
      hostname: flags.host ?? '127.0.0.1',
      tls,
      maxBody,
      publicUrl,
      onError,
      ...(worker ? { host: worker } : {}),
    });
    const shownPublic = (publicUrl ?? weir.config.publicUrl)?.replace(/\/+$/, '');
    await writeServeInfo(ctx.home, { pid: process.pid, url: serving.url, ...(shownPublic ? { publicUrl: shownPublic } : {}) });
    ctx.noteNewHome();
    if (ctx.json) io.stdout.write(`${JSON.stringify({ url: serving.url, publicUrl: shownPublic ?? null, pid: process.pid })}\n`);
    else io.stdout.write(`weir listening on ${serving.url}${shownPublic ? ` (public URL ${shownPublic})` : ''}\n`);

    const signal = await untilSignal();
    if (!ctx.json) io.stdout.write(`weir: ${signal}: finishing requests and executions in flight\n`);
    await serving.close();
    await part?.close();
    await clearServeInfo(ctx.home);
    if (!ctx.json) io.stdout.write('weir: stopped\n');
  },
};
