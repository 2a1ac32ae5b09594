// Issue #34, property 2: flow configs. Any JSON document given to `save` is saved or refused with
// INVALID_CONFIG and a list of problems, each with a path (CONTRACT sections 3, 4 and 20): never a crash, a
// stack or another error. Valid flows (random DAGs of the registered node types, configs from each type's
// schema and example, branching nodes' edges by their handles) always save, and saving what `get` returns
// changes nothing: the same config, the same sync status, no new version.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createWeir, WeirError, type Weir } from '../../src/index.js';
import { cli, tmpDir } from '../_utils.js';
import { anyDocument, validFlow } from './_flow-gen.js';
import { checkAsync } from './_props.js';

const FILE = 'flow-configs';
const show = (doc: unknown) => JSON.stringify(doc)?.slice(0, 2000);

/** Saves `doc`; a refusal must be INVALID_CONFIG with problems {path, message} (the other outcomes fail the property). */
async function saveOrRefuse(weir: Weir, id: string, doc: unknown): Promise<'saved' | 'refused'> {
  try {
    await weir.workflows.save(id, doc as never);
    return 'saved';
  } catch (err) {
    const what = `${(err as Error)?.stack ?? err}\ndoc: ${show(doc)}`;
    assert.ok(err instanceof WeirError, `not a WeirError: ${what}`);
    assert.is(err.code, 'INVALID_CONFIG', what);
    const problems = err.details as Array<{ path: unknown; message: unknown }>;
    assert.ok(Array.isArray(problems) && problems.length > 0, `problems listed: ${what}`);
    for (const p of problems) {
      assert.type(p.path, 'string', `a problem's path: ${JSON.stringify(p)} ${what}`);
      assert.type(p.message, 'string', `a problem's message: ${JSON.stringify(p)} ${what}`);
      assert.ok((p.message as string).length > 0 && !(p.message as string).includes('\n'), `one line: ${JSON.stringify(p)}`);
    }
    return 'refused';
  }
}

/** Saving what `get` returns keeps the config, the sync status and the versions. */
async function resaveIsNoop(weir: Weir, id: string, context: string): Promise<void> {
  const before = await weir.workflows.get(id);
  const after = await weir.workflows.save(id, JSON.parse(JSON.stringify(before.config)));
  const again = await weir.workflows.get(id);
  // As JSON: stored objects may have no prototype, and an own `constructor` key would then fool a deep compare.
  assert.is(JSON.stringify(again.config), JSON.stringify(before.config), `config changed by a re-save: ${context}`);
  assert.is(after.status, before.status, `status: ${context}`);
  assert.is(after.publishedVersion, before.publishedVersion, `version: ${context}`);
  assert.is(after.localVersion, before.localVersion, `base version: ${context}`);
}

let weir: Weir;
let id: string;
test.before(async () => {
  weir = await createWeir({ env: {} });
  id = (await weir.workflows.create('props')).id;
});
test.after(() => weir.close());

test('any JSON document is saved or refused with INVALID_CONFIG and problems that each have a path', async () => {
  let saved = 0;
  await checkAsync(
    'save accepts or refuses with problems',
    500,
    FILE,
    fc.asyncProperty(anyDocument(weir.nodes), async (doc) => {
      if ((await saveOrRefuse(weir, id, doc)) === 'refused') return;
      saved++;
      await resaveIsNoop(weir, id, show(doc));
    }),
  );
  console.log(`  (${saved} of them saved)`);
});

test('generated valid flows always save; re-saving what get returns is a no-op, published or not', async () => {
  let n = 0;
  await checkAsync(
    'valid flows save, and a re-save is a no-op',
    100,
    FILE,
    fc.asyncProperty(validFlow(weir.nodes), fc.boolean(), async (flow, publish) => {
      const wf = await weir.workflows.create(`valid-${n++}`);
      const outcome = await saveOrRefuse(weir, wf.id, flow).catch((err) => `${err.message}`);
      assert.is(outcome, 'saved', `a valid flow was refused: ${outcome}\n${show(flow)}`);
      if (publish) await weir.workflows.publish(wf.id);
      await resaveIsNoop(weir, wf.id, show(flow));
      assert.is((await weir.workflows.status(wf.id)).status, publish ? 'synced' : 'draft', show(flow));
    }),
  );
});

test('through the CLI: a valid flow saves (exit 0); a broken one exits 1 with one error line and no stack', async () => {
  const home = tmpDir('weir-props-');
  const created = await cli(['workflows', 'create', 'cli-props', '--json'], { home });
  const cliId = created.json<{ id: string }>().id;
  const samples = [
    ...fc.sample(validFlow(weir.nodes), { numRuns: 2, seed: 7 }).map((doc) => ({ doc, valid: true })),
    ...fc.sample(anyDocument(weir.nodes), { numRuns: 4, seed: 7 }).map((doc) => ({ doc, valid: false })),
  ];
  for (const [i, { doc, valid }] of samples.entries()) {
    const file = join(home, `doc-${i}.json`);
    writeFileSync(file, JSON.stringify(doc));
    const expected = valid ? 'saved' : await saveOrRefuse(weir, id, doc);
    const run = await cli(['f', 'save', cliId, file], { home });
    const what = `${show(doc)}\n${run.stderr}`;
    assert.is(run.code, expected === 'saved' ? 0 : 1, what);
    assert.not.match(run.stderr, /\n\s+at /, `no stack: ${what}`);
    if (expected === 'refused') {
      assert.match(run.stderr, /^error: invalid workflow config/, what);
      const json = await cli(['f', 'save', cliId, file, '--json'], { home });
      assert.is(json.code, 1);
      assert.is(JSON.parse(json.stderr).error.code, 'INVALID_CONFIG', json.stderr);
      assert.is(json.stdout, '');
    }
  }
});

test.run();
