// `npm run bench`: builds, then runs every bench/*.ts (or the ones named) one after another.
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const build = spawnSync(process.execPath, ['node_modules/tsup/dist/cli-default.js', '--silent'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);
const wanted = process.argv.slice(2);
const files = readdirSync(new URL('.', import.meta.url))
  .filter((f) => f.endsWith('.ts') && !f.startsWith('_'))
  .filter((f) => !wanted.length || wanted.some((w) => f.startsWith(w)));
let failed = 0;
for (const file of files) {
  console.log(`\n== bench/${file}`);
  const r = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', `bench/${file}`], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
