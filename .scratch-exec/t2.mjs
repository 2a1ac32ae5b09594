import { newQuickJSWASMModule, RELEASE_SYNC } from 'quickjs-emscripten';
const mod = await newQuickJSWASMModule(RELEASE_SYNC);
function run(code, wrap, {mem=32<<20, ms=500}={}) {
  const t0=performance.now();
  const rt = mod.newRuntime();
  rt.setMemoryLimit(mem); rt.setMaxStackSize(256*1024);
  const deadline = Date.now()+ms;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  let out;
  try {
    const r = ctx.evalCode(wrap(code));
    if (r.error) { out = {err: ctx.dump(r.error)}; r.error.dispose(); }
    else { out={ok: ctx.dump(r.value)}; r.value.dispose(); }
  } finally { ctx.dispose(); try { rt.dispose(); } catch (e) { out.disposeErr = e.message.slice(0,60) } }
  return {...out, ms: (performance.now()-t0).toFixed(2)};
}
const sync = c => `(function(){ "use strict";\n${c}\n})()`;
console.log(run('function f(){return f()} return f()', sync));
console.log(run('return 1', sync));
