import type { HostRequest } from '../types/http.js';
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a running `weir serve` records in its home, so `workflows webhook-url` can print a reachable URL. */
export interface ServeInfo {
  pid: number;
  url: string;
  publicUrl?: string;
}

const file = (home: string) => join(home, 'run', 'serve.json');

/**
 * Records the running host, unless another live host on this home is recorded already: a second `weir serve`
 * on the home leaves the first one's record, so its URL stays the one printed. Written whole (a temporary
 * file renamed), so a reader never sees half of it. Resolves with whether this host's record was written.
 * @example
 * const mine = await writeServeInfo(home, { pid: process.pid, url: 'http://127.0.0.1:8787' })
 */
export async function writeServeInfo(home: string, info: ServeInfo): Promise<boolean> {
  const running = readServeInfo(home);
  if (running && running.pid !== info.pid) return false;
  await mkdir(join(home, 'run'), { recursive: true });
  const temp = `${file(home)}.${process.pid}.tmp`;
  await writeFile(temp, JSON.stringify(info));
  await rename(temp, file(home));
  return true;
}

/**
 * Removes the record of the host with process id `pid` when stopping: only its own, so a second host that
 * stops (or fails to start) never removes the record of the first, still running.
 * @example
 * await clearServeInfo(home, process.pid)
 */
export async function clearServeInfo(home: string, pid: number): Promise<void> {
  let recorded: number | undefined;
  try {
    recorded = (JSON.parse(readFileSync(file(home), 'utf8')) as ServeInfo).pid;
  } catch {
    return;
  }
  if (recorded === pid) await rm(file(home), { force: true });
}

/** The host running on this home, or null (no record, or its process is gone). */
export function readServeInfo(home: string): ServeInfo | null {
  try {
    const info = JSON.parse(readFileSync(file(home), 'utf8')) as ServeInfo;
    process.kill(info.pid, 0);
    return info;
  } catch {
    return null;
  }
}

/** The default port of `weir serve`. */
export const DEFAULT_PORT = 8787;

/**
 * The base of the URLs the host answers from outside (webhook and knowledge URLs): the running host's
 * `--public-url`, else the configured public URL, else the running host's own URL (https when it serves
 * TLS), else the default address of `weir serve`, which serves plain http.
 * @example
 * `${publicBase(home, config.publicUrl)}/trigger/${token}`
 */
export function publicBase(home: string | undefined, publicUrl?: string): string {
  const running = home ? readServeInfo(home) : null;
  const base = running?.publicUrl ?? publicUrl ?? running?.url ?? `http://127.0.0.1:${DEFAULT_PORT}`;
  return base.replace(/\/+$/, '');
}

/**
 * The base URL of this host for an answer to `req`: a public URL when one is set (`--public-url`, the
 * configured `publicUrl`, the running host's), else the address the request itself reached (scheme, host,
 * port and the path weir is mounted under), which is right for an embedded host `weir serve` never recorded.
 * @example
 * `${requestBase(req, home, config.publicUrl)}/trigger/${token}`
 */
export function requestBase(req: Pick<HostRequest, 'publicUrl' | 'origin' | 'base'>, home: string | undefined, publicUrl?: string): string {
  const configured = req.publicUrl ?? (home ? readServeInfo(home)?.publicUrl : undefined) ?? publicUrl;
  if (configured) return configured.replace(/\/+$/, '');
  return req.origin ? `${req.origin}${req.base ?? ''}` : publicBase(home, publicUrl);
}

/**
 * {@link publicBase} for hot paths (a URL per execution): the running host's record is read at most once
 * per `ttlMs`, so a host started or stopped meanwhile is seen within that time.
 * @example
 * const base = cachedPublicBase(home, config.publicUrl)
 * `${base()}/resume/${token}`
 */
export function cachedPublicBase(home: string | undefined, publicUrl?: string, ttlMs = 1000): () => string {
  let url = '';
  let readAt = -Infinity;
  return () => {
    const now = performance.now();
    if (now - readAt >= ttlMs) {
      url = publicBase(home, publicUrl);
      readAt = now;
    }
    return url;
  };
}
