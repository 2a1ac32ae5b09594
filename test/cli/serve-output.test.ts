// What `weir serve` and `workflows webhook-url` tell a newcomer (CONTRACT section 20): why a webhook is not
// live yet, the published flows at start and when published, a line per execution, --quiet, a busy port.
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { createWeir } from '../../src/weir.js';
import { cli, cliInProcess, flow, writeJson } from '../_utils.js';
import { chain, homeWith, publish, send, startServe, tmpDir } from '../host/_helpers.js';

type Serving = Awaited<ReturnType<typeof startServe>>;

/** Resolves with the host's output once `pattern` matches it, checked on every chunk the child writes. */
function outputMatching(s: Serving, pattern: RegExp, ms = 15_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!pattern.test(s.output())) return false;
      s.child.stdout!.off('data', check);
      clearTimeout(timer);
      resolve(s.output());
      return true;
    };
    const timer = setTimeout(() => {
      s.child.stdout!.off('data', check);
      reject(new Error(`no output matching ${pattern} within ${ms} ms:\n${s.output()}`));
    }, ms);
    // Listeners run in order: startServe's own one has added the chunk to output() before this one runs.
    if (!check()) s.child.stdout!.on('data', check);
  });
}

const json = { 'content-type': 'application/json' };
const respondChain = chain('webhook_trigger', [{ type: 'respond', config: { status: 200, body: { hi: '{{ body.name }}' } } }]);
const greeter = (weir: Awaited<ReturnType<typeof createWeir>>) => publish(weir, 'greeter', { type: 'webhook_trigger', config: { respondImmediately: false } }, respondChain.nodes, respondChain.edges);

test('webhook-url of a flow without a published webhook trigger says why and how to make it live (exit 0, URL kept)', async () => {
  const home = tmpDir('weir-serve-out-');
  // The steps between the looks are made by the CLI in this process; `webhook-url` is what is tested.
  const created = await cliInProcess(['workflows', 'create', 'greeter', '--json'], { home });
  const { id } = created.json();
  const draft = await cli(['workflows', 'webhook-url', 'greeter'], { home });
  assert.is(draft.code, 0);
  const [url, ...rest] = draft.stdout.trimEnd().split('\n');
  assert.match(url, /^http:\/\/127\.0\.0\.1:8787\/trigger\/[\w-]+$/);
  assert.equal(rest, [
    'Format Confirmed: no',
    'Webhook Trigger Enabled: no',
    'not live yet: it is not published with a webhook trigger; publish a config whose trigger is webhook_trigger first (weir workflows save greeter <file>, then weir workflows publish greeter)',
  ]);

  // Published with its manual trigger: the published trigger is named.
  assert.is((await cliInProcess(['workflows', 'publish', 'greeter'], { home })).code, 0);
  const manual = await cli(['workflows', 'webhook-url', 'greeter', '--json'], { home });
  assert.is(manual.code, 0);
  assert.equal(manual.json(), {
    id,
    name: 'greeter',
    url,
    formatConfirmed: false,
    webhookTriggerEnabled: false,
    variables: [],
    publishedTrigger: 'manual_trigger',
    notLive: 'its published trigger is manual_trigger; publish a config whose trigger is webhook_trigger first (weir workflows save greeter <file>, then weir workflows publish greeter)',
  });

  // The draft has a webhook trigger now, not published yet: publish is the step.
  writeJson(home, 'hook.json', flow({ type: 'webhook_trigger' }));
  assert.is((await cliInProcess(['workflows', 'save', 'greeter', 'hook.json'], { home })).code, 0);
  const saved = await cli(['workflows', 'webhook-url', 'greeter'], { home });
  assert.match(saved.stdout, '\nWebhook Trigger Enabled: no\nnot live yet: its published trigger is manual_trigger; run weir workflows publish greeter\n');

  assert.is((await cliInProcess(['workflows', 'publish', 'greeter'], { home })).code, 0);
  const [live, liveText] = await Promise.all([cli(['workflows', 'webhook-url', 'greeter', '--json'], { home }), cli(['workflows', 'webhook-url', 'greeter'], { home })]);
  assert.is(live.json().webhookTriggerEnabled, true);
  assert.is(live.json().publishedTrigger, 'webhook_trigger');
  assert.is(live.json().notLive, null);
  assert.not.match(liveText.stdout, 'not live');
});

test('a known but unpublished token answers the unknown-token 404, and the host warns once, naming the flow', async () => {
  let id = '';
  let token = '';
  let liveToken = '';
  const home = await homeWith(async (weir) => {
    ({ token: liveToken } = await greeter(weir));
    const draft = await weir.workflows.create('hello', undefined, { config: flow({ type: 'webhook_trigger' }) as any });
    ({ id, webhookToken: token } = draft);
  });
  const s = await startServe(home);
  try {
    const unknown = await send(`${s.url}/trigger/${'x'.repeat(token.length)}`);
    const unpublished = await send(`${s.url}/trigger/${token}`);
    assert.is(unpublished.status, 404);
    assert.is(unpublished.text, unknown.text, 'the same body as an unknown token');
    const warning = `WARN  webhook for "hello" (${id}) answered 404: it is not published with a webhook trigger; run weir workflows publish hello`;
    await outputMatching(s, new RegExp(warning.replace(/[()]/g, '\\$&')));

    assert.is((await send(`${s.url}/trigger/${token}`, { method: 'GET' })).status, 404);
    // A request after the second 404, waited for by its own line: the warning was not repeated meanwhile.
    await send(`${s.url}/trigger/${liveToken}`, { body: '{"name":"Ada"}', headers: json });
    const out = await outputMatching(s, /execution success flow=greeter/);
    assert.is(out.split(warning).length - 1, 1, 'warned once');
  } finally {
    await s.stop();
  }
});

test('weir serve lists the published flows under its listen line, and logs a flow published while it runs', async () => {
  const home = await homeWith(async (weir) => {
    await greeter(weir);
    await publish(weir, 'nightly', { type: 'schedule_trigger', config: { scheduleType: 'daily', dailyTime: '02:00' } });
    await publish(weir, 'by-hand', { type: 'manual_trigger' });
  });
  const weir = await createWeir({ home });
  const token = (await weir.workflows.findPublished('greeter'))!.webhookToken;
  const ids = Object.fromEntries((await weir.workflows.listPublished()).map((f) => [f.name, f.id]));
  await weir.close();
  // The host on an empty home, checked after this one, starts meanwhile (and is stopped whatever happens).
  const starting = startServe(tmpDir('weir-serve-out-'));
  starting.catch(() => {}); // awaited below; a failed start is reported there
  try {
    await publishedAtStart(home, token, ids);
  } catch (err) {
    await (await starting.catch(() => null))?.stop();
    throw err;
  }
  const empty = await starting;
  try {
    const out = await outputMatching(empty, /no published flows/);
    assert.match(out, /^weir listening on \S+\n {2}no published flows: webhooks answer 404 until a flow is published \(weir workflows publish <name>\)\n/);
  } finally {
    await empty.stop();
  }
});

/** `weir serve --public-url` on `home`: its listen line, the flows published at its start, then one published while it runs. */
async function publishedAtStart(home: string, token: string, ids: Record<string, string>) {
  const s = await startServe(home, ['--public-url', 'https://hooks.example.com/']);
  try {
    const out = await outputMatching(s, /nightly .*\n/);
    const lines = out.split('\n');
    assert.match(lines[0], /^weir listening on http:\/\/127\.0\.0\.1:\d+ \(public URL https:\/\/hooks\.example\.com\)$/);
    assert.equal(lines.slice(1, 4), [
      `  by-hand (${ids['by-hand']}): manual_trigger`,
      `  greeter (${ids.greeter}): webhook_trigger  https://hooks.example.com/trigger/${token}`,
      `  nightly (${ids.nightly}): schedule_trigger  every day at 02:00 UTC`,
    ]);

    // Published by another process while the host runs: the host's watch sees it.
    const created = await cli(['workflows', 'create', 'later', '--publish', '--json'], { home });
    const later = await outputMatching(s, /INFO {2}flow published flow=later.*\n/);
    assert.match(later, `flow published flow=later flowId=${created.json().id} trigger=manual_trigger version=1\n`);
  } finally {
    await s.stop();
  }
}

test('one info line per ended execution; --quiet keeps the listen line, warnings and errors only', async () => {
  let token = '';
  let failing = '';
  let unpublished = '';
  const home = await homeWith(async (weir) => {
    ({ token } = await greeter(weir));
    const c = chain('webhook_trigger', [{ type: 'code', config: { code: 'throw new Error("boom")' } }]);
    ({ token: failing } = await publish(weir, 'broken', { type: 'webhook_trigger', config: { respondImmediately: false } }, c.nodes, c.edges));
    unpublished = (await weir.workflows.create('draft-only')).webhookToken;
  });

  // A usage error that starts no host: checked at the end, run meanwhile.
  const bothFlags = cli(['serve', '--quiet', '--log-level', 'info'], { home });
  const s = await startServe(home);
  try {
    const answer = await send(`${s.url}/trigger/${token}`, { body: '{"name":"Ada"}', headers: json });
    const exec = answer.headers.get('x-execution-id');
    assert.ok(exec);
    const out = await outputMatching(s, /execution success .*\n/);
    assert.match(out, new RegExp(`INFO {2}execution success flow=greeter flowId=wf_\\w+ exec=${exec} trigger=webhook \\d+ms\\n`));
  } finally {
    await s.stop();
  }

  const quiet = await startServe(home, ['--quiet']);
  try {
    await send(`${quiet.url}/trigger/${token}`, { body: '{"name":"Ada"}', headers: json });
    assert.is((await send(`${quiet.url}/trigger/${unpublished}`)).status, 404);
    await send(`${quiet.url}/trigger/${failing}`);
    await outputMatching(quiet, /ERROR execution error flow=broken.*\n/);
    const out = await outputMatching(quiet, /WARN .*answered 404.*\n/);
    const lines = out.trimEnd().split('\n');
    assert.match(lines[0], /^weir listening on /);
    assert.is(lines.length, 3, out);
    assert.ok(lines.some((l) => /WARN {2}webhook for "draft-only" \(wf_\w+\) answered 404/.test(l)));
    assert.ok(lines.some((l) => /ERROR execution error flow=broken .*node=code-1 .*error=.*boom/.test(l)));
  } finally {
    await quiet.stop();
  }
  const both = await bothFlags;
  assert.is(both.code, 2);
  assert.match(both.stderr, 'error: --quiet is --log-level warn: give one of them');
});

test('a second weir serve on a busy port exits 1 naming --port', async () => {
  const home = tmpDir('weir-serve-out-');
  const s = await startServe(home);
  try {
    const port = new URL(s.url).port;
    const second = await cli(['serve', '--port', port], { home });
    assert.is(second.code, 1);
    assert.is(second.stderr.split('\n')[0], `error: port ${port} is already in use (another weir serve?); pick another with --port <n>`);
    assert.not.match(second.stderr, 'EADDRINUSE');
    assert.is((await send(`${s.url}/healthz`, { method: 'GET' })).status, 200, 'the first one still serves');
  } finally {
    await s.stop();
  }
});

test.run();
