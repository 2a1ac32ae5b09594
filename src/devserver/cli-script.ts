import { dirname, extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The `weir` CLI script that starts a preview process from inside a host (the management API), with the node
 * flags to run it. A host's own `process.argv[1]` is not the CLI when an app embeds weir, so the script is
 * found beside this module: `cli.js` in the build (every entry and chunk sits in one folder), `../cli/main.ts`
 * in the sources, run through the same TypeScript loader as the host (its own flags).
 * @example
 * await launchPreview({ home, interfaceId, name, cwd: process.cwd(), env: process.env, ...weirCliScript() })
 */
export function weirCliScript(): { cli: string; execArgv: string[] } {
  const here = fileURLToPath(import.meta.url);
  if (extname(here) === '.ts') return { cli: join(dirname(here), '../cli/main.ts'), execArgv: process.execArgv };
  // The built script runs on plain Node: the host's flags could run the host's own code again (`node -e`).
  return { cli: join(dirname(here), 'cli.js'), execArgv: [] };
}
