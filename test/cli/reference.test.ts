import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { root } from '../../src/cli/commands/index.js';
import { cliReference } from '../../src/cli/reference.js';
import { ROOT } from '../_utils.js';

const FILE = join(ROOT, 'docs/cli.md');

// `npm run docs:cli` sets WEIR_UPDATE_DOCS to rewrite the page instead of comparing it.
test('docs/cli.md is the reference generated from the command table', () => {
  const expected = cliReference(root);
  if (process.env.WEIR_UPDATE_DOCS) writeFileSync(FILE, expected);
  const actual = readFileSync(FILE, 'utf8');
  assert.ok(actual === expected, 'docs/cli.md differs from the command table: run `npm run docs:cli` and commit the result');
});

test('the reference names every command of the table with its arguments', () => {
  const page = cliReference(root);
  assert.match(page, '## `weir workflows` (aliases: workflow, flow, f)');
  assert.match(page, '| `publish` | `<workflow-id>` |');
  assert.match(page, '## `weir data tables`');
  assert.match(page, '`--home <dir>`');
});

test.run();
