import { newQuickJSWASMModule, RELEASE_SYNC } from 'quickjs-emscripten';
let mod = await newQuickJSWASMModule(RELEASE_SYNC);
function run(code, {mem=32<<20, ms=2000}={}) {
  const t0=performance.now();
  const rt = mod.newRuntime();
  rt.setMemoryLimit(mem); rt.setMaxStackSize(256*1024);
  const deadline = Date.now()+ms;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  let out;
  try {
    const r = ctx.evalCode(`(function(){ "use strict";\n${code}\n})()`);
    if (r.error) { const m = ctx.getProp(r.error,'message'); out = {err: ctx.dump(m)}; m.dispose(); r.error.dispose(); }
    else { out={ok: ctx.dump(r.value)}; r.value.dispose(); }
  } finally { ctx.dispose(); try { rt.dispose(); } catch (e) { out.disposeErr = e.message.slice(0,60) } }
  return {...out, ms: (performance.now()-t0).toFixed(2), mem: process.memoryUsage().rss>>20};
}
console.log(run('const a=[]; while(true) a.push("x".repeat(1000)+a.length)'));
console.log(run('const a=[]; for(;;) a.push({i:a.length, s: "abc"+a.length})'));
console.log(run('const a=[]; for(;;) a.push(new Array(100000).fill(1))'));
console.log(run('let s="x"; for(;;) s = s + s'));
console.log(run('const a=new ArrayBuffer(64*1024*1024); return a.byteLength'));
console.log(run('return 1'));
let t=performance.now(); for (let i=0;i<200;i++) run('return 1'); console.log('per run', (performance.now()-t)/200);
