import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { cli, flow, tmpDir, writeJson } from '../../_utils.js';

const gitOut = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

/** A home whose project remote is a fresh bare repository. */
function setup() {
  const root = tmpDir('weir-project-');
  const remote = join(root, 'remote.git');
  execFileSync('git', ['init', '-q', '--bare', remote]);
  const home = join(root, 'home');
  mkdirSync(home);
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

  writeJson(root, 'changed.json', flow({ type: 'manual_trigger', config: { inputParams: [{ name: 'orderId', type: 'string' }] } }));
  const saved = await cli(['f', 'save', id, join(root, 'changed.json')], { home });
  assert.is(saved.code, 0, saved.stderr);
  assert.is((await cli(['project', 'status', '--json'], { home })).json().changed, true);

  const second = await cli(['project', 'deploy', '--json'], { home });
  assert.is(second.code, 0, second.stderr);
  assert.is(second.json().committed, true);
  assert.is.not(second.json().commit, first.json().commit);
  gitOut(clone, 'pull', '-q');
  assert.is(gitOut(clone, 'rev-list', '--count', 'HEAD'), '2');
  assert.ok(readFileSync(join(clone, 'workflows/orders.json'), 'utf8').includes('"orderId"'));
  assert.is((await cli(['project', 'status'], { home })).stdout.includes('changed:   no'), true);
});

test('the project holds agents and prompts, table schemas and KV namespaces, never a secret value', async () => {
  const { root, remote, home, configure } = setup();
  configure();
  writeFileSync(join(root, 'prompt.md'), 'You answer refund questions.');
  for (const args of [
    ['agent', 'create', 'refunds', 'Refund helper'],
    ['agent', 'prompt', 'set', 'refunds', join(root, 'prompt.md')],
    ['data', 'tables', 'init', 'user.orders', 'Orders'],
    ['data', 'kv', 'init', 'cache', 'Hot keys'],
    ['secrets', 'set', 'API_KEY', 'sup3r-s3cret-value'],
  ]) {
    const r = await cli(args, { home });
    assert.is(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
  }
  const pushed = await cli(['project', 'deploy'], { home });
  assert.is(pushed.code, 0, pushed.stderr);
  const clone = join(root, 'clone');
  execFileSync('git', ['clone', '-q', remote, clone]);
  assert.is(readFileSync(join(clone, 'agents/refunds.prompt.md'), 'utf8'), 'You answer refund questions.');
  assert.is(JSON.parse(readFileSync(join(clone, 'agents/refunds.json'), 'utf8')).name, 'Refund helper');
  const table = JSON.parse(readFileSync(join(clone, 'tables/user.orders.json'), 'utf8'));
  assert.is(table.name, 'user.orders');
  assert.ok(table.columns.some((c: { name: string }) => c.name === 'id'));
  assert.equal(JSON.parse(readFileSync(join(clone, 'kv/namespaces.json'), 'utf8')).map((n: { name: string }) => n.name), ['cache']);
  const grep = spawnSync('git', ['grep', '-q', '-e', 'sup3r-s3cret-value'], { cwd: clone });
  assert.is(grep.status, 1, 'no file holds the secret value');
});

test('an HTTPS remote gets the GIT_TOKEN secret as a header, never in the URL or the repository config', async () => {
  const { home } = setup();
  const seen: Array<string | undefined> = [];
  const server = createServer((req, res) => {
    seen.push(req.headers.authorization);
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  try {
    writeJson(home, 'weir.config.json', { project: { remote: `http://127.0.0.1:${(server.address() as AddressInfo).port}/team/repo.git`, branch: 'main' } });
    assert.is((await cli(['secrets', 'set', 'GIT_TOKEN', 'tok-123'], { home })).code, 0);
    const r = await cli(['project', 'deploy'], { home });
    assert.is(r.code, 1, 'the fake remote refuses');
    assert.match(r.stderr, 'git push failed');
    assert.not.match(r.stderr, 'tok-123');
    assert.ok(seen.includes(`Basic ${Buffer.from('x-access-token:tok-123').toString('base64')}`), JSON.stringify(seen));
    assert.not.match(readFileSync(join(home, 'project/default/.git/config'), 'utf8'), 'tok-123');
  } finally {
    server.close();
  }
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
