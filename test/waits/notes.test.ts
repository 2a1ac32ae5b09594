// The waits' `new:` notes (new wakes told to the other hosts through storage) last a minute: an idle host
// drops them once their minute is over, though nothing in storage changed since it last looked.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { startHost, until } from '../host/_helpers.js';

test('an idle host drops a wait note once its minute is over', async () => {
  const host = await startHost();
  try {
    await host.weir.waits.start();
    // Another process's note, written 57 s ago: taken in at the next look, and due to go 3 s later.
    const note = `${Date.now() - 57_000}_other1_1`;
    await host.weir.storage.view('cloud', 'waits').setItem(`new:${note}`, '[]');
    const file = join(host.home, 'cloud', 'waits', 'new', note);
    assert.ok(existsSync(file));
    // Nothing else happens on this host: the note must still go.
    await until(() => !existsSync(file), 8000, 'the expired note to be dropped');
  } finally {
    await host.close();
  }
});

test.run();
