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
const external = ['better-sqlite3', 'bullmq', 'esbuild', 'ioredis', 'pg', 'playwright-core', '@modelcontextprotocol/sdk'];

// src/internal.ts is bundled once: the public entry (src/index.ts, which names what it takes from it) and the
// adapters load it beside them (./internal.js or ./internal.cjs) rather than bundling a copy each, so there is
// one WeirError class everywhere.
const sharedBundle: Plugin = {
  name: 'entries-share-internal',
  setup(build) {
    const internal = build.initialOptions.format === 'cjs' ? './internal.cjs' : './internal.js';
    build.onResolve({ filter: /(^\.|\/src)\/internal\.js$/ }, (args) =>
      args.importer.includes('/adapters/') || args.importer.endsWith('/src/index.ts') ? { path: internal, external: true } : undefined,
    );
  },
};

export default defineConfig([
  {
    // The library and its adapters: ESM + CJS with types. `sqlite-child` is the script of the SQL process, which
    // the tables engine forks from beside its own module; the sandbox's worker script is found the same way (shims give
    // the CJS build `import.meta.url` for both).
    entry: { index: 'src/index.ts', internal: 'src/internal.ts', 'node-http': 'adapters/node-http/index.ts', fetch: 'adapters/fetch/index.ts', 'sqlite-child': 'src/resources/tables/sqlite-child.ts' },
    format: ['esm', 'cjs'],
    shims: true,
    dts,
    outDir,
    target: 'node20',
    clean: false,
    sourcemap: false,
    external,
    esbuildPlugins: [sharedBundle],
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
  {
    // The Studio (src/studio/app): one browser bundle with its stylesheet, and index.html, into studio/. Its
    // libraries (React, React Flow, dagre) are devDependencies bundled here, so nothing is built at install or serve time.
    // Split: the views other than the flow list are chunks loaded when opened, so the first load carries no graph code.
    entry: { app: 'src/studio/app/main.tsx' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    outDir: `${outDir}/studio`,
    publicDir: 'src/studio/public',
    clean: false,
    splitting: true,
    minify: true,
    noExternal: [/.*/],
    define: { 'process.env.NODE_ENV': '"production"' },
  },
]);
