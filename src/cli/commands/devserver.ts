import { WeirError } from '../../errors.js';
import type { CommandContext, CommandSpec } from '../types.js';

const SERVER_COLUMNS = ['interface', 'port', 'url', 'pid', 'logFile'];

/** The interface a `logs` call is about: the named one, the folder we are in, or the only running preview. */
async function logsTarget(ctx: CommandContext): Promise<string> {
  const { findServer, listServers } = await import('../../devserver/registry.js');
  const ref = ctx.args.interface;
  if (ref) {
    const running = await findServer(ctx.home, ref);
    if (running) return running.interface;
    return (await (await ctx.weir()).interfaces.get(ref)).name;
  }
  const { findInterfaceFolder } = await import('../../resources/interfaces/local.js');
  const here = await findInterfaceFolder(ctx.io.cwd);
  if (here) return here.manifest.name;
  const servers = await listServers(ctx.home);
  if (servers.length === 1) return servers[0].interface;
  if (!servers.length) throw new WeirError('NOT_FOUND', 'no preview runs', { hints: ['start one with `weir preview <interface-id>`'] });
  throw new WeirError('INVALID_INPUT', `several previews run (${servers.map((s) => s.interface).join(', ')}): name one`);
}

/** Waits for Ctrl-C or SIGTERM (long-running commands end there). */
const onSignal = () =>
  new Promise<void>((resolve) => {
    const done = () => {
      process.off('SIGINT', done);
      process.off('SIGTERM', done);
      resolve();
    };
    process.once('SIGINT', done);
    process.once('SIGTERM', done);
  });

/** `weir servers`: lists the running dev servers. */
export const servers: CommandSpec = {
  name: 'servers',
  summary: 'running dev servers with ports, URLs and log files',
  async run(ctx) {
    const { listServers, publicInfo } = await import('../../devserver/registry.js');
    const list = (await listServers(ctx.home)).map(publicInfo);
    return { data: list, columns: SERVER_COLUMNS };
  },
};

/** `weir logs [interface] [-n N] [-f] [-c]`: a dev server's log (`-c`: the browser console). */
export const logs: CommandSpec = {
  name: 'logs',
  summary: 'logs of a dev server (current interface if none given); -c shows the browser console',
  args: [{ name: 'interface' }],
  flags: {
    lines: { type: 'number', alias: 'n', summary: 'how many lines (default 50)', placeholder: 'number' },
    follow: { type: 'boolean', alias: 'f', summary: 'keep streaming new output until Ctrl-C (or the server ends)' },
    console: { type: 'boolean', alias: 'c', summary: 'browser console messages of the preview page instead of terminal logs' },
  },
  async run(ctx) {
    const { findServer, isAlive, serverFiles } = await import('../../devserver/registry.js');
    const { fileSize, followFile, tailLines } = await import('../../devserver/tail.js');
    const name = await logsTarget(ctx);
    const n = ctx.flags.lines ?? 50;
    if (!Number.isInteger(n) || n < 0) throw new WeirError('INVALID_INPUT', '--lines must be a whole number, 0 or more');
    const files = serverFiles(ctx.home, name);
    const file = ctx.flags.console ? files.console : files.log;
    const size = await fileSize(file);
    const server = await findServer(ctx.home, name);
    if (!server && !size) throw new WeirError('NOT_FOUND', `no preview runs for interface "${name}" and none left logs`, { hints: [`start one with \`weir preview ${name}\``] });
    const lines = await tailLines(file, n);
    if (!ctx.flags.follow) return { data: lines, text: lines.length ? lines.join('\n') : '(no output yet)' };
    if (lines.length) ctx.io.stdout.write(`${lines.join('\n')}\n`);
    const stop = new AbortController();
    void onSignal().then(() => stop.abort());
    await followFile(file, { from: size, write: (s) => ctx.io.stdout.write(s), signal: stop.signal, alive: () => isAlive(server?.pid) });
  },
};

/** `weir preview <interface-id> [--stop]`: starts a detached dev server, or stops it. */
export const preview: CommandSpec = {
  name: 'preview',
  summary: 'start a dev server and a headless browser page for an interface (--stop ends them)',
  args: [{ name: 'interface-id', required: true }],
  flags: {
    stop: { type: 'boolean', summary: 'end the dev server and its browser' },
    port: { type: 'number', summary: 'port of the dev server (default: a free one)', placeholder: 'port' },
    foreground: { type: 'boolean', summary: 'run the dev server in this terminal until Ctrl-C (`preview` starts it so)' },
  },
  async run(ctx) {
    const ref = ctx.args['interface-id']!;
    if (ctx.flags.stop) {
      const { stopPreview } = await import('../../devserver/launch.js');
      const r = await stopPreview(ctx.home, ref);
      return { data: { interface: r.interface, pid: r.pid, stopped: true }, text: `stopped the preview of ${r.interface} (pid ${r.pid})` };
    }
    const weir = await ctx.weir();
    const record = await weir.interfaces.get(ref);
    const folder = await weir.interfaces.folder(record.id, ctx.io.cwd);
    const { publicInfo } = await import('../../devserver/registry.js');
    if (ctx.flags.foreground) {
      const { runPreview } = await import('../../devserver/process.js');
      const log = (line: string) => ctx.io.stdout.write(`${new Date().toISOString()} ${line}\n`);
      const { createListener } = await import('../../../adapters/node-http/index.js');
      // Schedules stay with `weir serve`: the preview's host only answers the page.
      const host = () => createListener(weir, { schedules: false, onError: (err) => log(`host error: ${(err as Error)?.stack ?? err}`) });
      const r = await runPreview({ host, home: ctx.home, folder, interfaceId: record.id, port: ctx.flags.port, env: ctx.io.env, log, stopped: onSignal() });
      return { data: { ...publicInfo(r), stopped: true }, text: 'preview stopped' };
    }
    const { launchPreview } = await import('../../devserver/launch.js');
    const { record: server, started } = await launchPreview({ home: ctx.home, interfaceId: record.id, name: record.name, cwd: folder.dir, port: ctx.flags.port, env: ctx.io.env });
    return {
      data: { ...publicInfo(server), started },
      text: `${started ? 'preview of' : 'already running: preview of'} ${server.interface} at ${server.url}\n  logs: weir logs ${server.interface} [-f] [-c]   stop: weir preview ${server.interface} --stop`,
    };
  },
};
