import { mkdir, writeFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { WeirError } from '../errors.js';
import type { InterfaceFolder } from '../resources/interfaces/index.js';
import { newToken } from '../util/ids.js';
import { findChromium } from './browser.js';
import { findServer, removeRecord, serverFiles, serversDir, writeRecord, type ServerRecord } from './registry.js';
import { startDevServer } from './server.js';
import { openWebview, type WebviewAction } from './webview.js';

/** The host's request listener over the same home: it answers the page's `/weir-client.js` and `/api/...`. */
export interface HostListener {
  (req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

export interface PreviewProcessOptions {
  /** Makes the host's listener (once the preview is sure to start); closed when the preview ends. */
  host(): HostListener;
  home: string;
  folder: InterfaceFolder;
  interfaceId: string;
  port?: number;
  env: NodeJS.ProcessEnv;
  log(line: string): void;
  /** Resolves when the preview should end (SIGTERM, SIGINT). */
  stopped: Promise<unknown>;
}

/** One preview per interface and home: a second start is refused, naming the running one. */
async function refuseSecond(home: string, name: string): Promise<void> {
  const running = await findServer(home, name);
  if (running && running.pid !== process.pid) throw new WeirError('EXISTS', `a preview of "${name}" already runs at ${running.url} (pid ${running.pid})`);
}

/**
 * The body of a preview process (`weir preview <id> --foreground`): a dev server for the interface folder,
 * a headless Chromium page kept open on it, and the record under `<home>/devservers/` that CLI calls find
 * it by. Returns once `stopped` resolves and everything is closed.
 * @example
 * await runPreview({ host: () => createListener(weir), home, folder, interfaceId, env: process.env, log: console.log, stopped: onSignal() })
 */
export async function runPreview(options: PreviewProcessOptions): Promise<ServerRecord> {
  const { home, folder, log } = options;
  const name = folder.manifest.name;
  const files = serverFiles(home, name);
  await refuseSecond(home, name);
  const executablePath = findChromium(options.env);
  // Records hold the control secret: only the owner may read them.
  await mkdir(serversDir(home), { recursive: true, mode: 0o700 });
  await writeFile(files.console, '');
  const secret = newToken(24);
  // The host's listener answers `/weir-client.js` and `/api/flows/...`, so the page's callFlow reaches the
  // home's flows.
  const host = options.host();
  let dev;
  try {
    dev = await startDevServer({ dir: folder.dir, port: options.port, secret, delegate: host, log });
  } catch (err) {
    await host.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') throw new WeirError('UNAVAILABLE', `port ${options.port} is in use`, { hints: ['choose another --port, or leave it out for a free one'] });
    throw err;
  }
  let view;
  try {
    view = await openWebview({ executablePath, url: dev.url, consoleFile: files.console, log });
  } catch (err) {
    await dev.close();
    await host.close();
    throw new WeirError('UNAVAILABLE', `cannot start Chromium (${executablePath}): ${(err as Error).message.split('\n')[0]}`);
  }
  // The webview checks each request's shape before it touches the page.
  dev.control = (action) => view.perform(action as WebviewAction);
  const record: ServerRecord = {
    interface: name,
    interfaceId: options.interfaceId,
    port: dev.port,
    url: dev.url,
    pid: process.pid,
    logFile: files.log,
    consoleFile: files.console,
    dir: folder.dir,
    browserPid: view.browserPid,
    startedAt: new Date().toISOString(),
    secret,
  };
  try {
    await refuseSecond(home, name); // another start may have won the race while this one started
  } catch (err) {
    await Promise.all([view.close(), dev.close(), host.close()]);
    throw err;
  }
  await writeRecord(home, record);
  log(`preview of ${name} at ${dev.url} (pid ${process.pid}, browser pid ${view.browserPid ?? '?'})`);
  await options.stopped;
  log('stopping');
  await view.close();
  await dev.close();
  await host.close();
  await removeRecord(home, name);
  return record;
}
