// Publishing one workflow from three places at once: two `weir workflows publish` CLI processes per round and,
// all the while, the management API of a host this process serves on the same home. Shared by the fs test here
// and the Redis one under test/scale.
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { serve } from '../../adapters/node-http/index.js';
import { cli } from '../_utils.js';

export interface RaceOptions {
  rounds?: number;
  /** Rounds running at once (each its own two processes): more contention, and the suite stays quick. */
  inFlight?: number;
  env?: Record<string, string>;
}

/**
 * Runs the race on `home` and asserts what must hold: every publish succeeded, no version was handed out
 * twice, and the published version equals the number of publishes. Returns that number.
 */
export async function publishRace(home: string, { rounds = 60, inFlight = 4, env = {} }: RaceOptions = {}): Promise<number> {
  const weir = await createWeir({ home, env: { ...process.env, ...env } });
  const host = await serve(weir, { port: 0, schedules: false });
  try {
    const headers = { authorization: `Bearer ${await weir.interfaces.accessToken()}`, 'content-type': 'application/json' };
    const { id } = await weir.workflows.create(`race-${Date.now().toString(36)}`);
    const versions: number[] = [];
    const failures: string[] = [];
    let racing = true;
    const api = (async () => {
      while (racing) {
        const res = await fetch(`${host.url}/api/v1/workflows/${id}/publish`, { method: 'POST', headers, body: '{}' });
        if (res.status !== 200) failures.push(`API publish: ${res.status} ${await res.text()}`);
        else versions.push(((await res.json()) as { version: number }).version);
        // Paced, so it publishes throughout the race without thousands of versions.
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    const round = async () => {
      const runs = await Promise.all([0, 1].map(() => cli(['workflows', 'publish', id, '--json'], { home, env })));
      for (const r of runs) {
        if (r.code === 0) versions.push(r.json().version);
        else failures.push(r.stderr);
      }
    };
    let started = 0;
    await Promise.all(Array.from({ length: inFlight }, async () => {
      while (started++ < rounds) await round();
    }));
    racing = false;
    await api;
    assert.equal(failures, [], 'every publish succeeds');
    const sorted = [...versions].sort((a, b) => a - b);
    const twice = sorted.filter((v, i) => sorted[i - 1] === v);
    assert.equal(twice, [], `versions handed out twice among ${versions.length} publishes`);
    const published = (await weir.workflows.findPublished(id))!.version;
    assert.is(published, versions.length, 'the published version counts the publishes: none was lost');
    assert.equal(sorted, Array.from({ length: versions.length }, (_, i) => i + 1));
    assert.ok(versions.length > rounds * 2, `${versions.length} publishes`);
    return versions.length;
  } finally {
    await host.close();
    await weir.close();
  }
}
