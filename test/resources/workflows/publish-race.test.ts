import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tmpDir } from '../../_utils.js';
import { publishRace } from './_race.js';

test('fs home: 60 rounds of two concurrent CLI publishes plus an in-process publisher hand out each version once and lose none', async () => {
  const home = tmpDir('weir-race-');
  const publishes = await publishRace(home);
  // Each version was claimed once, by an exclusively created file.
  const [id] = readdirSync(join(home, 'cloud', 'workflow-versions'));
  assert.is(readdirSync(join(home, 'cloud', 'workflow-versions', id)).length, publishes);
});

test('unpublishing forgets the version claims: publishing again starts at version 1', async () => {
  const home = tmpDir('weir-race-');
  const created = await cli(['workflows', 'create', 'again', '--publish', '--json'], { home });
  const { id } = created.json();
  assert.is((await cli(['workflows', 'publish', id, '--json'], { home })).json().version, 2);
  assert.is((await cli(['workflows', 'delete', id, '--unpublish'], { home })).code, 0);
  assert.is((await cli(['workflows', 'create', 'again', '--publish', '--json'], { home })).code, 0);
  const again = (await cli(['workflows', 'get', 'again', '--json'], { home })).json();
  assert.is(again.published.version, 1);
  assert.equal(readdirSync(join(home, 'cloud', 'workflow-versions')), [again.id]);
});

test.run();
