import { readFileSync } from 'node:fs';
import { defineConfig } from 'tsup';

const { version } = JSON.parse(readFileSync('./package.json', 'utf8'));
// WEIR_OUT builds into another folder (without types), so parallel work does not overwrite dist/.
const outDir = process.env.WEIR_OUT || 'dist';
const dts = !process.env.WEIR_OUT;
// An optional dependency (tsup bundles those unless told): the native addon is loaded from node_modules, on first use.
const external = ['better-sqlite3'];

export default defineConfig([
  {
    // The library and its adapters: ESM + CJS with types.
    entry: { index: 'src/index.ts', 'node-http': 'adapters/node-http/index.ts', fetch: 'adapters/fetch/index.ts' },
    format: ['esm', 'cjs'],
    // The CommonJS build finds the sandbox worker next to itself through import.meta.url.
    shims: true,
    dts,
    outDir,
    target: 'node20',
    clean: false,
    sourcemap: false,
    external,
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
