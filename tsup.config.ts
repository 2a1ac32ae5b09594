import { readFileSync, rmSync } from 'node:fs';
import { defineConfig, type Options } from 'tsup';

type Plugin = NonNullable<Options['esbuildPlugins']>[number];

const { version } = JSON.parse(readFileSync('./package.json', 'utf8'));
// WEIR_OUT builds into another folder (without types), so parallel work does not overwrite dist/.
const outDir = process.env.WEIR_OUT || 'dist';
const dts = !process.env.WEIR_OUT;
// The folder is emptied once, here, before both builds below: each build's own `clean` would delete what the
// other wrote, and without any, chunks of earlier builds (their names are content hashes) pile up in it.
rmSync(outDir, { recursive: true, force: true });
// Loaded from the user's node_modules on first use, never bundled: the optional dependency (a native addon) and
// the optional peer packages (src/util/optional.ts), which are also devDependencies that tsup would otherwise inline.
const external = ['better-sqlite3', 'bullmq', 'esbuild', 'ioredis', 'pg', 'playwright-core'];

// The adapters reach weir through its public entry only; in the built package they load that entry beside them
// (./index.js or ./index.cjs) rather than bundling a second copy, so there is one WeirError class everywhere.
const publicEntry: Plugin = {
  name: 'adapters-use-public-entry',
  setup(build) {
    const entry = build.initialOptions.format === 'cjs' ? './index.cjs' : './index.js';
    build.onResolve({ filter: /\/src\/index\.js$/ }, (args) => (args.importer.includes('/adapters/') ? { path: entry, external: true } : undefined));
  },
};

export default defineConfig([
  {
    // The library and its adapters: ESM + CJS with types. `sqlite-child` is the script of the SQL process, which
    // the tables engine forks from beside its own module; the sandbox's worker script is found the same way (shims give
    // the CJS build `import.meta.url` for both).
    entry: { index: 'src/index.ts', 'node-http': 'adapters/node-http/index.ts', fetch: 'adapters/fetch/index.ts', 'sqlite-child': 'src/resources/tables/sqlite-child.ts' },
    format: ['esm', 'cjs'],
    shims: true,
    dts,
    outDir,
    target: 'node20',
    clean: false,
    sourcemap: false,
    external,
    esbuildPlugins: [publicEntry],
    define: { __WEIR_VERSION__: JSON.stringify(version) },
  },
  {
    // The CLI: ESM with a shebang; commands are split into chunks loaded on demand. The sandbox's worker
    // thread entry is built alongside (every build above finds it in the same folder).
    entry: { cli: 'src/cli/main.ts', 'sandbox-worker': 'src/sandbox/worker.ts' },
    format: ['esm'],
    target: 'node20',
    splitting: true,
    outDir,
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
    external,
    define: { __WEIR_VERSION__: JSON.stringify(version) },
  },
]);
