import { createWeir } from './src/weir.ts';
const weir = await createWeir({});
await weir.tables.init('user.bench');
await weir.tables.insert('user.bench', { sku: 'warm', qty: 0, price: 0.5 });
const lookup = 'SELECT * FROM "user.bench" WHERE id = ?';
for (let r = 0; r < 5; r++) {
  const t = performance.now();
  for (let i = 0; i < 20000; i++) { const row = await weir.tables.insert('user.bench', { sku: `S-${i}`, qty: i, price: i / 2 }); await weir.tables.query('user.bench', lookup, [row.id]); }
  console.log('pair µs (memory db)', ((performance.now() - t) / 20000 * 1000).toFixed(1));
}
