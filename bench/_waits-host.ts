// The host of bench/waits.ts: `weir serve`'s adapter on a home, printing its URL once listening and, once
// its wake index is loaded, `{"loaded": n, "ms": t}` (the CLI logs neither before its ready line).
import type * as Weir from '../src/index.js';

const out = process.env.WEIR_OUT ?? 'dist';
const { createWeir } = (await import(`../${out}/index.js`)) as typeof Weir;
const { serve } = (await import(`../${out}/node-http.js`)) as typeof import('../adapters/node-http/index.js');
const weir = await createWeir({ home: process.argv[2] });
let loaded: unknown = null;
weir.bus.on('waits:loaded', (e) => {
  loaded = e;
});
const serving = await serve(weir, { port: 0 });
process.stdout.write(`${JSON.stringify({ url: serving.url })}\n`);
const poll = setInterval(() => {
  if (!loaded) return;
  clearInterval(poll);
  process.stdout.write(`${JSON.stringify({ loaded })}\n`);
}, 2);
process.on('SIGTERM', () => void serving.close().then(() => weir.close()).then(() => process.exit(0)));
