// A host process like `weir serve` whose weir knows the tests' `ask_approval` node type, for the tests that
// kill -9 it: `node --import tsx test/waits/_approval-host.ts <home>` prints `listening on <url>`.
import { serve } from '../../adapters/node-http/index.js';
import { createWeir } from '../../src/weir.js';
import { askNode } from './_approval.js';

const weir = await createWeir({ home: process.argv[2], nodes: [askNode] });
const serving = await serve(weir, { port: 0 });
process.stdout.write(`listening on ${serving.url}\n`);
process.once('SIGTERM', () => void serving.close().then(() => weir.close()).then(() => process.exit(0)));
