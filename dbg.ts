import { createWeir } from '/work/wt/waits/src/weir.js';
import { flow } from '/work/wt/waits/test/_utils.js';
const weir = await createWeir({});
let errs = 0, woken = 0;
weir.bus.on('wait:error', (e) => { if (errs++ < 3) console.log('err', e); });
weir.bus.on('wait:woken', () => woken++);
const config = flow({ type: 'manual_trigger' }, [
  { id: 'wait-1', type: 'wait', config: { for: '{{ $input.ms }}ms' } },
  { id: 'set-1', type: 'set', config: { values: { ms: '{{ $input.ms }}' } } },
], [{ source: 'manual_trigger-1', target: 'wait-1' }, { source: 'wait-1', target: 'set-1' }]);
await weir.workflows.create('many', undefined, { config: config as any });
void weir.waits.start();
const t0 = Date.now();
const ids: string[] = [];
for (let i = 0; i < 1000; i++) ids.push((await weir.run('many', { ms: 300 + ((i * 613) % 1500) })).id);
console.log('runs took', Date.now() - t0, weir.waits.size);
await new Promise((res) => setTimeout(res, 3000));
const list = await Promise.all(ids.map((id) => weir.executions.get(id).then((r) => r.status, (e) => e.code)));
const counts: Record<string, number> = {};
for (const s of list) counts[s] = (counts[s] ?? 0) + 1;
console.log(counts, 'woken', woken, 'errs', errs, weir.waits.size);
await weir.close();
