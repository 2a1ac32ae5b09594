// One of `npm test`'s workers (test/run.mjs starts them): reads a test file per line of stdin as JSON
// `{name, file}`, runs its uvu suites, then writes the end marker it was given (its first argument) on stdout
// and stderr, so the runner knows that all the file's output has arrived. A file runs alone in its worker,
// its `test.after` hooks done before the next file starts.
import { register } from 'node:module';
import { createInterface } from 'node:readline';
import { pathToFileURL } from 'node:url';

const END = process.argv[2];

// uvu queues the suites a file declares instead of running them at once, until `exec`.
globalThis.UVU_DEFER = 1;
const uvu = await import('uvu');
// The test files' `uvu` is test/_uvu.mjs: uvu, with errors whose `details` it cannot print made printable.
register('./_uvu-hooks.mjs', import.meta.url);

for await (const line of createInterface({ input: process.stdin })) {
  const { name, file } = JSON.parse(line);
  globalThis.UVU_QUEUE = [[name]];
  globalThis.UVU_INDEX = 0;
  try {
    await import(pathToFileURL(file).href);
    await uvu.exec();
  } catch (err) {
    // A file that throws as it loads ran none of its tests: the runner counts it as one failure.
    process.stdout.write(`\n${name}\n   FAIL  the file did not load\n${err?.stack ?? err}\n\n  Total:     1\n  Passed:    0\n  Skipped:   0\n`);
  }
  process.stdout.write(END);
  process.stderr.write(END);
}
process.exit(0);
