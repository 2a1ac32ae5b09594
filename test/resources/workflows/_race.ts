// Publishing one workflow from three places at once: two `weir workflows publish` CLI processes per round and,
// all the while, this process's own weir (standing in for the management API). Shared by the fs test here and
// the Redis one under test/scale.
import * as assert from 'uvu/assert';
import { createWeir } from '../../../src/weir.js';
import { cli } from '../../_utils.js';

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
  try {
    const { id } = await weir.workflows.create(`race-${Date.now().toString(36)}`);
    const versions: number[] = [];
    const failures: string[] = [];
    let racing = true;
    const api = (async () => {
      while (racing) {
        versions.push((await weir.workflows.publish(id)).version);
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
    assert.equal(failures, [], 'every CLI publish succeeds');
    const sorted = [...versions].sort((a, b) => a - b);
    const twice = sorted.filter((v, i) => sorted[i - 1] === v);
    assert.equal(twice, [], `versions handed out twice among ${versions.length} publishes`);
    const published = (await weir.workflows.findPublished(id))!.version;
    assert.is(published, versions.length, 'the published version counts the publishes: none was lost');
    assert.equal(sorted, Array.from({ length: versions.length }, (_, i) => i + 1));
    assert.ok(versions.length > rounds * 2, `${versions.length} publishes`);
    return versions.length;
  } finally {
    await weir.close();
  }
}
