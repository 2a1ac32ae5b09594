// run/serve.json belongs to the host that wrote it: a second `weir serve` on the same home, stopping or
// failing to start on a busy port, leaves the first one's record in place.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, startServe, tmpDir } from '../_utils.js';
import { until } from './_helpers.js';

const recorded = (home: string) => (JSON.parse(readFileSync(join(home, 'run', 'serve.json'), 'utf8')) as { pid: number; url: string });

test('a second weir serve that stops, or cannot take a busy port, never removes the first host\'s run/serve.json', async () => {
  const home = tmpDir('weir-serve-info-');
  const first = await startServe(home, ['--quiet']);
  let second: Awaited<ReturnType<typeof startServe>> | null = null;
  try {
    assert.equal(recorded(home), { pid: first.child.pid!, url: first.url });
    second = await startServe(home);
    // Once it is set up (it says so after its listen line), it stops on SIGTERM as a host does.
    await until(() => second!.output().includes('another weir serve'), 10_000, 'the second host to see the first');
    assert.is(recorded(home).pid, first.child.pid, 'the running first host stays recorded');
    assert.is(await second.stop(), 0);
    second = null;
    assert.equal(recorded(home), { pid: first.child.pid!, url: first.url }, 'the second host stopping left it');

    const busy = await cli(['serve', '--port', new URL(first.url).port], { home });
    assert.is(busy.code, 1, busy.stderr);
    assert.match(busy.stderr, /--port/);
    assert.is(recorded(home).pid, first.child.pid, 'a host failing on the busy port left it');

    assert.is(await first.stop(), 0);
    assert.not.ok(existsSync(join(home, 'run', 'serve.json')), 'the first host removes its own record when it stops');
  } finally {
    await second?.stop();
    await first.stop();
  }
});

test.run();
