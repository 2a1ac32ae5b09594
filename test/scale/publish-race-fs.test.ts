// The fs race spawns 120 CLI processes: heavy on 2 cores, so it runs with the scale-out suite (`npm run test:scale`).
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { tmpDir } from '../_utils.js';
import { publishRace } from './_race.js';

test('fs home: 60 rounds of two concurrent CLI publishes plus API publishes hand out each version once and lose none', async () => {
  const home = tmpDir('weir-race-');
  const publishes = await publishRace(home);
  // Each version was claimed once, by an exclusively created file.
  const [id] = readdirSync(join(home, 'cloud', 'workflow-versions'));
  assert.is(readdirSync(join(home, 'cloud', 'workflow-versions', id)).length, publishes);
});

test.run();
