import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { WeirError } from '../errors.js';
import { writeFileAtomic } from '../storage/atomic.js';

/** A running dev server as recorded in `<home>/devservers/<name>.json` (machine-local, not in storage). */
export interface ServerRecord {
  interface: string;
  interfaceId: string;
  port: number;
  url: string;
  pid: number;
  logFile: string;
  consoleFile: string;
  /** The interface folder it serves. */
  dir: string;
  /** The headless browser that keeps the preview page open. */
  browserPid: number | null;
  startedAt: string;
  /** Guards the webview control API of this server; never printed. */
  secret: string;
}

/** What `servers` shows of a record (the secret stays in the file). */
export type ServerInfo = Omit<ServerRecord, 'secret'>;

export const serversDir = (home: string) => join(home, 'devservers');

/** The files of one interface's dev server. */
export const serverFiles = (home: string, name: string) => ({
  record: join(serversDir(home), `${name}.json`),
  log: join(serversDir(home), `${name}.log`),
  console: join(serversDir(home), `${name}.console.log`),
});

/** True while a process with this pid exists (signal 0 only checks). */
export function isAlive(pid: number | null | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export const writeRecord = (home: string, record: ServerRecord) =>
  writeFileAtomic(serverFiles(home, record.interface).record, `${JSON.stringify(record, null, 2)}\n`);

export const removeRecord = (home: string, name: string) => rm(serverFiles(home, name).record, { force: true });

export const publicInfo = ({ secret: _secret, ...info }: ServerRecord): ServerInfo => info;

/**
 * The running dev servers of a home, by interface name. Records whose process is gone are deleted.
 * @example
 * for (const s of await listServers(home)) console.log(s.interface, s.url)
 */
export async function listServers(home: string): Promise<ServerRecord[]> {
  const names = await readdir(serversDir(home)).catch(() => [] as string[]);
  const records: ServerRecord[] = [];
  for (const file of names.filter((n) => n.endsWith('.json')).sort()) {
    const path = join(serversDir(home), file);
    let record: ServerRecord;
    try {
      record = JSON.parse(await readFile(path, 'utf8'));
    } catch {
      continue;
    }
    if (isAlive(record.pid)) records.push(record);
    else await rm(path, { force: true });
  }
  return records;
}

/** The running dev server of an interface (by name or id), or null. */
export async function findServer(home: string, ref: string): Promise<ServerRecord | null> {
  return (await listServers(home)).find((s) => s.interface === ref || s.interfaceId === ref) ?? null;
}

/** Like {@link findServer}, but no running preview is an error that says how to start one. */
export async function requireServer(home: string, ref: string): Promise<ServerRecord> {
  const found = await findServer(home, ref);
  if (found) return found;
  throw new WeirError('NOT_FOUND', `no preview runs for interface "${ref}"`, { hints: [`start one with \`weir preview ${ref}\``, '`weir servers` lists the running ones'] });
}
