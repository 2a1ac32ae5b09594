import { newQuickJSWASMModule, RELEASE_SYNC, shouldInterruptAfterDeadline } from 'quickjs-emscripten';
let t=performance.now();
const mod = await newQuickJSWASMModule(RELEASE_SYNC);
console.log('module', performance.now()-t);
function run(code, {mem=32<<20, ms=200}={}) {
  const t0=performance.now();
  const rt = mod.newRuntime();
  rt.setMemoryLimit(mem); rt.setMaxStackSize(512*1024);
  const deadline = Date.now()+ms;
  rt.setInterruptHandler(() => Date.now() > deadline);
  const ctx = rt.newContext();
  let out;
  try {
    const r = ctx.evalCode(`(async function(){ "use strict";\n${code}\n})()`);
    if (r.error) { out = {err: ctx.dump(r.error)}; r.error.dispose(); }
    else {
      rt.executePendingJobs();
      const st = ctx.getPromiseState(r.value);
      r.value.dispose();
      if (st.type==='fulfilled') { out={ok: ctx.dump(st.value)}; st.value.dispose(); }
      else if (st.type==='rejected') { const e=st.error; out={err: ctx.dump(e), status: (()=>{const s=ctx.getProp(e,'status'); const v=ctx.dump(s); s.dispose(); return v})()}; e.dispose(); }
      else out={pending:true};
    }
  } finally { ctx.dispose(); rt.dispose(); }
  return {...out, ms: (performance.now()-t0).toFixed(2)};
}
console.log(run('return 1+1'));
console.log(run('return typeof process'));
console.log(run('return typeof require'));
console.log(run('return globalThis.constructor.constructor("return typeof process")()'));
console.log(run('while(true){}'));
console.log(run('while(true){ try { while(true){} } catch(e){} }'));
console.log(run('const a=[]; while(true) a.push("x".repeat(1000)+a.length)'));
console.log(run('let s="x"; while(true) s+=s;'));
console.log(run('function f(){return f()} return f()'));
console.log(run('const e=new Error("bad sig"); e.status=401; throw e'));
console.log(run('throw "str"'));
console.log(run('return await Promise.resolve(5)'));
console.log(run('return {a:[1,2,{b:null}]}'));
for (let i=0;i<5;i++) console.log(run('return 2'));
