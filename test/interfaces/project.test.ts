import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, flow, tmpDir, writeJson } from '../_utils.js';

const gitOut = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A home whose project remote is a fresh bare repository. */
function setup() {
  const root = tmpDir('weir-project-');
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const home = join(root, 'home');
  return { root, remote, home, configure: () => writeJson(home, 'weir.config.json', { project: { remote } }) };
}

test('project deploy without a remote: exit 1 saying how to set it', async () => {
  const home = tmpDir();
  const r = await cli(['project', 'deploy'], { home });
  assert.is(r.code, 1);
  assert.match(r.stderr, 'no project remote is configured');
  assert.match(r.stderr, '"project": {"remote"');
  const s = await cli(['proj', 'status', '--json'], { home });
  assert.is(s.code, 0);
  assert.equal(s.json(), { id: 'default', remote: null, branch: null, lastPush: null, changed: true });
});

test('project deploy pushes workflows to the bare remote; a change makes a new commit; status follows', async () => {
  const { root, remote, home, configure } = setup();
  const created = await cli(['f', 'create', 'orders', '--publish', '--json'], { home });
  assert.is(created.code, 0, created.stderr);
  const id = created.json().id;
  const init = await cli(['i', 'init', '--name', 'shop'], { home, cwd: root });
  assert.is(init.code, 0, init.stderr);
  configure();

  const before = await cli(['project', 'status', '--json'], { home });
  assert.equal(before.json().lastPush, null);
  assert.is(before.json().changed, true);

  const first = await cli(['project', 'deploy', '--json'], { home });
  assert.is(first.code, 0, first.stderr);
  assert.is(first.json().committed, true);
  assert.is(first.json().branch, 'master', 'a default bare repository names master as its HEAD');

  const clone = join(root, 'clone');
  execFileSync('git', ['clone', '-q', remote, clone]);
  const pushed = JSON.parse(readFileSync(join(clone, 'workflows/orders.json'), 'utf8'));
  assert.equal(pushed.nodes.map((n: { id: string }) => n.id), ['manual_trigger-1']);
  assert.ok(existsSync(join(clone, 'interfaces/shop/index.html')), 'interface sources are in the repository');
  assert.ok(existsSync(join(clone, 'interfaces/shop/weir.interface.json')));
  const manifest = JSON.parse(readFileSync(join(clone, 'weir.project.json'), 'utf8'));
  assert.equal(manifest.workflows.map((w: { name: string }) => w.name), ['orders']);
  assert.is(gitOut(clone, 'log', '-1', '--format=%an <%ae>'), 'weir <weir@localhost>');

  const synced = await cli(['project', 'status', '--json'], { home });
  assert.is(synced.json().changed, false);
  assert.is(synced.json().lastPush.commit, first.json().commit);

  const again = await cli(['proj', 'push', '--json'], { home });
  assert.is(again.json().committed, false, 'no change, no new commit');
  assert.is(again.json().commit, first.json().commit);

  writeJson(root, 'changed.json', flow({ type: 'manual_trigger' }, [{ id: 'set-1', type: 'set', config: { values: { a: 1 } } }], [{ id: 'e1', source: 'manual_trigger-1', target: 'set-1' }]));
  const saved = await cli(['f', 'save', id, join(root, 'changed.json')], { home });
  assert.is(saved.code, 0, saved.stderr);
  assert.is((await cli(['project', 'status', '--json'], { home })).json().changed, true);

  const second = await cli(['project', 'deploy', '--json'], { home });
  assert.is(second.code, 0, second.stderr);
  assert.is(second.json().committed, true);
  assert.is.not(second.json().commit, first.json().commit);
  gitOut(clone, 'pull', '-q');
  assert.is(gitOut(clone, 'rev-list', '--count', 'HEAD'), '2');
  assert.ok(readFileSync(join(clone, 'workflows/orders.json'), 'utf8').includes('"set-1"'));
  assert.is((await cli(['project', 'status'], { home })).stdout.includes('changed:   no'), true);
});

test('project deploy: an unknown project id and a failing push are clear errors', async () => {
  const { root, home, configure } = setup();
  configure();
  const unknown = await cli(['project', 'deploy', 'other'], { home });
  assert.is(unknown.code, 1);
  assert.match(unknown.stderr, 'project "other" not found');
  writeFileSync(join(home, 'weir.config.json'), JSON.stringify({ project: { remote: join(root, 'missing.git') } }));
  const failed = await cli(['project', 'deploy', '--json'], { home });
  assert.is(failed.code, 1);
  assert.is(failed.stdout, '');
  assert.is(JSON.parse(failed.stderr).error.code, 'PROVIDER');
});

test.run();
