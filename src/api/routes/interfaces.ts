import { weirCliScript } from '../../devserver/cli-script.js';
import { callWebview } from '../../devserver/control.js';
import { launchPreview } from '../../devserver/launch.js';
import { findServer, listServers, serverFiles, type ServerRecord } from '../../devserver/registry.js';
import { tailLines } from '../../devserver/tail.js';
import { WeirError } from '../../errors.js';
import type { JsonSchema } from '../../util/json-schema.js';
import { RawAnswer, type ApiRoute } from '../define.js';
import type { ApiDeps } from '../deps.js';
import { ref } from '../schemas/index.js';

const id = { id: { type: 'string', description: "The interface's id or its name." } satisfies JsonSchema };
/** How long a screenshot with `after` waits for the page to change, unless told (below common proxy timeouts). */
const DEFAULT_WAIT_MS = 25_000;

/** The home previews are recorded in; a host without one (state in other storage only) has none. */
function previewHome(deps: ApiDeps): string {
  if (deps.home) return deps.home;
  throw new WeirError('UNAVAILABLE', 'previews need a weir home on disk: this host has none', { hints: ['run the host with a home (`weir serve --home <dir>`, or `createWeir({ home })`)'] });
}

/**
 * `/interfaces`: the interfaces with their previews. A preview is the process `weir preview` starts (a dev
 * server and a headless Chromium page, recorded under `<home>/devservers/`), so the CLI's webview commands
 * (`weir click <id> ...`) drive a preview started here, and the screenshot here shows what they did.
 */
export const interfaceRoutes = (deps: ApiDeps): ApiRoute[] => {
  const { interfaces } = deps;
  // Starts under way, by interface id: a second request (a double click) waits for the same preview.
  const starting = new Map<string, Promise<{ record: ServerRecord; started: boolean }>>();

  async function start(ref: string) {
    const record = await interfaces.get(ref);
    const home = previewHome(deps);
    let pending = starting.get(record.id);
    if (!pending) {
      pending = (async () => {
        // Checked here for a clear 404: the preview process would only exit on it.
        if (!(await findServer(home, record.id))) await interfaces.folder(record.id, process.cwd());
        // The child looks the folder up from the same working directory as the check above.
        return launchPreview({ home, interfaceId: record.id, name: record.name, cwd: process.cwd(), env: process.env, ...weirCliScript() });
      })().finally(() => starting.delete(record.id));
      starting.set(record.id, pending);
    }
    const { record: server, started } = await pending;
    return { id: record.id, name: record.name, url: server.url, started };
  }

  /** The interface and its running preview; none running is a 409 that says how to start one. */
  async function running(ref: string) {
    const record = await interfaces.get(ref);
    const server = deps.home ? await findServer(deps.home, record.id) : null;
    if (server) return { record, server, home: deps.home! };
    throw new WeirError('CONFLICT', `no preview runs for interface "${record.name}"`, {
      hints: [`start one: POST /api/v1/interfaces/${record.name}/preview (or \`weir preview ${record.name}\`)`],
    });
  }

  return [
    {
      method: 'GET',
      path: '/interfaces',
      operationId: 'listInterfaces',
      tag: 'interfaces',
      summary: 'Every interface with its deploy status (`weir interface list --json`) and the URL of its running preview (`previewUrl`, null when none runs)',
      response: { status: 200, description: 'the interfaces, by name', schema: { type: 'array', items: ref('Interface') } },
      async handle() {
        const [list, servers] = await Promise.all([interfaces.list(), deps.home ? listServers(deps.home) : []]);
        return list.map((r) => ({ ...r, previewUrl: servers.find((s) => s.interfaceId === r.id)?.url ?? null }));
      },
    },
    {
      method: 'POST',
      path: '/interfaces/:id/preview',
      operationId: 'startPreview',
      tag: 'interfaces',
      summary: 'Start the preview `weir preview <id>` starts (a dev server and a headless Chromium page on it), or answer the one that runs',
      description:
        "The preview is a process of its own on the host's machine that outlives the request (and the host): stop it with `weir preview <id> --stop`. The CLI's webview commands (`weir click|type|eval|nav|screenshot <id> ...`) drive its page. 404 when the interface or its source folder (where `weir interface init` made it, or `./<name>/` under the host's working directory) is not found; 503 UNAVAILABLE without Chromium.",
      params: id,
      body: { type: 'object', additionalProperties: false, properties: {} },
      response: { status: 200, description: 'the running preview', schema: ref('Preview') },
      handle: ({ params }) => start(params.id),
    },
    {
      method: 'GET',
      path: '/interfaces/:id/preview/screenshot',
      operationId: 'previewScreenshot',
      tag: 'interfaces',
      summary: "A PNG of the preview's page, the page `weir click|type|eval|nav <id>` drive; with `after`, answered once the page changed past that version (a long poll)",
      description: `The \`X-Webview-Version\` header counts the page's changes so far: each load (navigation, live reload after a rebuild), each burst of DOM changes, and each click, type, eval and nav (from the CLI or elsewhere). The image shows the page at least at that version. To follow the page, repeat \`GET ...?after=<the last X-Webview-Version>\`: the answer comes as soon as the page changes (at once if it already did), or after \`wait\` ms (default ${DEFAULT_WAIT_MS}) with the same version. 409 CONFLICT when no preview runs.`,
      params: id,
      query: {
        type: 'object',
        properties: {
          after: { type: 'integer', minimum: 0, description: 'wait until the page version passes this one (the `X-Webview-Version` of the last screenshot)' },
          wait: { type: 'integer', minimum: 0, maximum: 60_000, description: `with \`after\`: how long to wait for a change, in ms (default ${DEFAULT_WAIT_MS})` },
          fullPage: { type: 'boolean', description: 'the whole scrollable page, not only the 1280x800 viewport' },
        },
      },
      response: { status: 200, description: 'the page as a PNG image', schema: { type: 'string', contentMediaType: 'image/png' }, contentType: 'image/png' },
      async handle({ params, query }) {
        const { record, home } = await running(params.id);
        const after = query.after as number | undefined;
        const shot = await callWebview(home, record.id, {
          action: 'screenshot',
          fullPage: query.fullPage === true,
          ...(after === undefined ? {} : { after, wait: (query.wait as number | undefined) ?? DEFAULT_WAIT_MS }),
        });
        const headers = { 'content-type': 'image/png', 'cache-control': 'no-store', 'x-webview-version': String(shot.version) };
        return new RawAnswer({ status: 200, headers, body: Buffer.from(shot.png, 'base64') });
      },
    },
    {
      method: 'GET',
      path: '/interfaces/:id/logs',
      operationId: 'previewLogs',
      tag: 'interfaces',
      summary: "The last lines of the preview's dev-server log (`weir logs <id> -n N --json`), or of its page's console (`console=true`, `weir logs -c`)",
      params: id,
      query: {
        type: 'object',
        properties: {
          lines: { type: 'integer', minimum: 0, maximum: 10_000, description: 'how many lines (default 50)' },
          console: { type: 'boolean', description: "the page's console messages instead of the dev server's log" },
        },
      },
      response: { status: 200, description: 'the lines, oldest first', schema: ref('PreviewLogs') },
      async handle({ params, query }) {
        const record = await interfaces.get(params.id);
        const home = previewHome(deps);
        const files = serverFiles(home, record.name);
        const [lines, server] = await Promise.all([tailLines(query.console === true ? files.console : files.log, (query.lines as number | undefined) ?? 50), findServer(home, record.id)]);
        return { lines, running: !!server };
      },
    },
  ];
};
