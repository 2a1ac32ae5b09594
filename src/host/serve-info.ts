import { readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** What a running `weir serve` records in its home, so `workflows webhook-url` can print a reachable URL. */
export interface ServeInfo {
  pid: number;
  url: string;
  publicUrl?: string;
}

const file = (home: string) => join(home, 'run', 'serve.json');

/** Records the running host (removed again by {@link clearServeInfo}). */
export async function writeServeInfo(home: string, info: ServeInfo): Promise<void> {
  await mkdir(join(home, 'run'), { recursive: true });
  await writeFile(file(home), JSON.stringify(info));
}

export async function clearServeInfo(home: string): Promise<void> {
  await rm(file(home), { force: true });
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
