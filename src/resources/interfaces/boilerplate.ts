import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { WeirError } from '../../errors.js';
import { MANIFEST_FILE } from './files.js';
import type { InterfaceManifest } from './types.js';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const indexHtml = (m: InterfaceManifest) => `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>${escapeHtml(m.name)}</title>
    <style>
      body { font: 16px/1.5 system-ui, sans-serif; max-width: 40rem; margin: 3rem auto; padding: 0 1rem; color: #1d232b; }
      form { display: flex; gap: .5rem; }
      input { flex: 1; padding: .5rem; font: inherit; }
      button { padding: .5rem 1rem; font: inherit; }
      pre { background: #f3f5f7; padding: 1rem; min-height: 1.5em; white-space: pre-wrap; }
    </style>
  </head>
  <body>
    <h1>${escapeHtml(m.name)}</h1>
    <p>${escapeHtml(m.description ?? 'A weir interface: the button calls a flow and shows its answer.')}</p>
    <form id="form">
      <input id="input" name="message" placeholder="Say something" autocomplete="off" />
      <button id="send" type="submit">Send</button>
    </form>
    <pre id="output"></pre>
    <!-- The host's client defines callFlow(name, input); it is served by \`weir serve\` and by the preview. -->
    <script src="/weir-client.js"></script>
    <script type="module" src="./main.js"></script>
  </body>
</html>
`;

const mainJs = (m: InterfaceManifest, flow: string) => `// Calls a published flow (one with an interface_event_trigger) and shows its answer. callFlow comes from
// /weir-client.js, which index.html loads first.
const { callFlow } = window;

const FLOW = ${JSON.stringify(flow)};
const NAME = ${JSON.stringify(m.name)};

const form = document.querySelector('#form');
const input = document.querySelector('#input');
const button = document.querySelector('#send');
const output = document.querySelector('#output');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  button.disabled = true;
  try {
    const result = await callFlow(FLOW, { message: input.value });
    output.textContent = typeof result === 'string' ? result : JSON.stringify(result, null, 2);
    console.log(\`[\${NAME}] \${FLOW} answered: \${JSON.stringify(result)}\`);
  } catch (err) {
    output.textContent = \`Error: \${err.message}\`;
    console.error(\`[\${NAME}] \${FLOW} failed: \${err.message}\`);
  } finally {
    button.disabled = false;
  }
});

console.log(\`[\${NAME}] ready, calling flow "\${FLOW}"\`);
`;

/**
 * Writes a new interface folder: a page with an input, a button and an output, a script that calls `flow`
 * with `callFlow(flow, { message })`, and the `weir.interface.json` marker. Refuses a non-empty folder.
 * @example
 * await scaffoldInterface('./shop', { id: 'if_abc', name: 'shop', type: 'external' }, 'checkout')
 */
export async function scaffoldInterface(dir: string, manifest: InterfaceManifest, flow: string): Promise<string[]> {
  const existing = await readdir(dir).catch(() => []);
  if (existing.length) throw new WeirError('EXISTS', `folder ${dir} already exists and is not empty`, { hints: ['choose another --name or run init elsewhere'] });
  await mkdir(dir, { recursive: true });
  const files: Record<string, string> = {
    'index.html': indexHtml(manifest),
    'main.js': mainJs(manifest, flow),
    [MANIFEST_FILE]: `${JSON.stringify(manifest, null, 2)}\n`,
  };
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return Object.keys(files);
}
