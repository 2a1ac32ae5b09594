import { setItemIfAbsent, type KeyValueStorage } from '../../storage/index.js';

/**
 * How long the published version may stay behind a claimed number before a publisher passes that number
 * by: its claimer died between claiming it and publishing (a live one takes milliseconds).
 */
const STUCK_MS = 30_000;

const pause = () => new Promise((r) => setTimeout(r, 2 + Math.random() * 10));

/**
 * The version numbers of publishes, each handed out once across every process sharing the cloud storage.
 * A publish claims the number after the version it read, `<id>:<n>`, by creating that key where it is
 * absent (an exclusive file, Redis SET NX); the one that creates it publishes version n, the others read
 * the published copy again and race for the number after it. A number is claimed only once the version
 * before it is published, so publishes are written in the order of their numbers: none is lost and the
 * published version counts them. The claims stay until the workflow is unpublished.
 * @example
 * const versions = versionClaims(storage.view('cloud', 'workflow-versions'))
 * const next = versions.race()
 * let n; while ((n = await next('wf_1', (await read()).version)) === null);
 */
export function versionClaims(store: KeyValueStorage) {
  return {
    /**
     * One publish's turns in the race: given the version published now, the number this publish may write,
     * or null when another publish took it (read the published copy again and take another turn).
     */
    race() {
      let floor = -1;
      let since = 0;
      return async (id: string, published: number): Promise<number | null> => {
        const now = Date.now();
        if (published > floor) (floor = published), (since = now);
        else if (now - since > STUCK_MS) (floor += 1), (since = now);
        const version = floor + 1;
        if (await setItemIfAbsent(store, `${id}:${version}`, JSON.stringify({ claimedAt: new Date(now).toISOString() }))) return version;
        await pause();
        return null;
      };
    },
    /** Forgets a workflow's claims (it was unpublished: a new publish starts again at version 1). */
    forget: (id: string) => store.clear(id),
  };
}
