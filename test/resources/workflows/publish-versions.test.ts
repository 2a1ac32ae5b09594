import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tmpDir } from '../../_utils.js';

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
