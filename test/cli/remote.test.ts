import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cli, tmpDir, type CliRun } from '../_utils.js';
import { apiHost } from '../api/_api.js';
import { chain, publish, until } from '../host/_helpers.js';
import { askNode } from '../waits/_approval.js';

/** Execution ids differ between two runs of the same command; everything else must not. */
const sameBut = (text: string) => text.replace(/exec_[\w-]+/g, 'exec_*');

test('weir --remote runs the workflows commands through a host, printing what the local commands print, with their exit codes', async () => {
  const h = await apiHost({ nodes: [askNode] });
  const env = { WEIR_TOKEN: h.token };
  const local = (...args: string[]) => cli(args, { home: h.home });
  const remote = (...args: string[]) => cli(['--remote', h.url, ...args], { env, cwd: tmpDir('weir-remote-') });
  const same = (l: CliRun, r: CliRun, what: string, normalize = (s: string) => s) => {
    assert.is(r.code, l.code, `${what}: exit code (stderr ${r.stderr})`);
    assert.is(normalize(r.stdout), normalize(l.stdout), `${what}: stdout`);
    assert.is(normalize(r.stderr), normalize(l.stderr), `${what}: stderr`);
  };
  try {
    /** Runs a command locally and remotely at once and compares what they print. */
    const compare = async (args: string[], normalize?: (s: string) => string) => {
      const [l, r] = await Promise.all([local(...args), remote(...args)]);
      same(l, r, args.join(' '), normalize);
      return r;
    };
    await Promise.all([['workflows', 'list'], ['workflows', 'get', 'hello'], ['workflows', 'status', 'hello'], ['flow', 'status', 'nope']].map((args) => compare(args)));
    const localPublish = await local('workflows', 'publish', 'hello', '--json');
    const remotePublish = await remote('workflows', 'publish', 'hello', '--json');
    assert.equal([localPublish.json().version, remotePublish.json()], [2, { ...localPublish.json(), version: 3 }]);

    await Promise.all(
      [
        ['workflows', 'run', 'hello', '--published', '--input', '{"name":"Ada"}'],
        ['workflows', 'run', 'failing'],
        ['workflows', 'run', 'failing', '--json'],
        ['workflows', 'run', 'hook', '--input', '{"order":1}', '--header', 'x-a=1', '--json'],
      ].map((args) => compare(args, sameBut)),
    );
    const failed = (await h.weir.executions.page({ status: 'error', limit: 1 })).items[0].id;
    const executions = ['workflows', 'executions', 'hello', '--limit', '3'];
    const [listed] = await Promise.all([compare([...executions, '--json']), compare(executions), compare(['workflows', 'retry', failed], sameBut)]);
    assert.is(listed.json().length, 2, 'the two runs of hello');
    const id = listed.json()[0].id;
    await Promise.all([compare(['workflows', 'execution', id]), compare(['workflows', 'cancel', id])]);

    // A running execution cancelled through the host.
    await h.weir.workflows.save('failing', { nodes: [{ id: 'manual_trigger-1', type: 'manual_trigger', config: {} }, { id: 'delay-1', type: 'delay', config: { ms: 5000 } }], edges: [{ id: 'e1', source: 'manual_trigger-1', target: 'delay-1' }] });
    const running = h.weir.run('failing', {});
    const runningId = await until(async () => (await h.weir.executions.page({ status: 'running', limit: 1 })).items[0]?.id, 5000, 'the run to start');
    const cancelled = await remote('workflows', 'cancel', runningId);
    assert.equal([cancelled.code, cancelled.stdout], [0, `cancelled execution ${runningId} (failing)\n`]);
    assert.is((await running).status, 'cancelled');

    // An approval decided through the host; an execution that waits for none is refused alike.
    await compare(['workflows', 'approve', id]);
    const asks = chain('manual_trigger', [{ type: 'ask_approval', config: { tool: 'refund' } }]);
    await publish(h.weir, 'asks', { type: 'manual_trigger' }, asks.nodes, asks.edges);
    const asking = await h.weir.run('asks', {}, { published: true });
    const denied = await remote('workflows', 'approve', asking.id, '--deny', '--reason', 'not today');
    assert.equal([denied.code, denied.stdout], [0, `denied refund of execution ${asking.id} (not today)\n`], denied.stderr);
    const done = await until(async () => (await h.weir.executions.get(asking.id)).status === 'success' && (await h.weir.executions.get(asking.id)), 10_000, 'the denied execution to go on');
    assert.equal(done.result, { approval: { approved: false, reason: 'not today' }, progress: { asked: 'refund' } });
  } finally {
    await h.close();
  }
});

test('--remote: other commands are a usage error naming those that work; the token from --token-file; a missing or wrong token says how to get it', async () => {
  const h = await apiHost();
  try {
    const dir = tmpDir('weir-remote-');
    writeFileSync(join(dir, 'token'), `${h.token}\n`);
    // Independent calls, run at once: each is a Node start-up of its own.
    const [other, save, listed, none, wrong, down, tokenFileAlone] = await Promise.all([
      cli(['--remote', h.url, 'secrets', 'list']),
      cli(['--remote', h.url, 'workflows', 'save', 'hello', 'x.json']),
      cli(['workflows', 'list', '--json', '--remote', h.url, '--token-file', 'token'], { cwd: dir }),
      cli(['--remote', h.url, 'workflows', 'list'], { cwd: dir }),
      cli(['--remote', h.url, 'workflows', 'list', '--json'], { cwd: dir, env: { WEIR_TOKEN: 'wrong' } }),
      cli(['--remote', 'http://127.0.0.1:1', 'workflows', 'list'], { cwd: dir, env: { WEIR_TOKEN: 'x' } }),
      cli(['--token-file', 'token', 'workflows', 'list'], { cwd: dir }),
    ]);
    assert.is(other.code, 2);
    assert.match(other.stderr, 'error: --remote does not work with `weir secrets list`');
    assert.match(other.stderr, 'weir workflows list, weir workflows get, weir workflows status, weir workflows publish, weir workflows run, weir workflows executions, weir workflows execution, weir workflows cancel, weir workflows approve, weir workflows retry');
    assert.is(save.code, 2);

    assert.is(listed.code, 0, listed.stderr);
    assert.equal(listed.json().map((w: any) => w.name), ['failing', 'hello', 'hook']);

    assert.is(none.code, 1);
    assert.match(none.stderr, 'error: the management API needs the host access token');
    assert.match(none.stderr, 'hint: set WEIR_TOKEN');
    assert.is(wrong.code, 1);
    assert.is(JSON.parse(wrong.stderr).error.code, 'FORBIDDEN');
    assert.is(down.code, 1);
    assert.match(down.stderr, 'error: cannot reach http://127.0.0.1:1');
    assert.is(tokenFileAlone.code, 2);
  } finally {
    await h.close();
  }
});

test.run();
