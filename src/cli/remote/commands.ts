import { WeirError } from '../../errors.js';
import type { ExecutionRecord } from '../../flow/types.js';
import type { ExecutionPage } from '../../types/executions.js';
import { MAX_PAGE } from '../../resources/executions/cursor.js';
import type { WorkflowConfig } from '../../resources/workflows/types.js';
import { approvalOf, approveResult, cancelResult, executionResult, executionsLimit, executionsResult, newExecution, runInput, runResult } from '../commands/executions.js';
import { getResult, listResult, publishResult, statusResult } from '../commands/workflows.js';
import { readUserFile } from '../read-input.js';
import type { CliIO, CommandContext, CommandResult, CommandSpec, GroupSpec } from '../types.js';
import { remoteApi, type RemoteApi } from './client.js';

type RemoteRun = (ctx: CommandContext, api: RemoteApi) => Promise<CommandResult>;

const path = (...parts: string[]) => `/${parts.map(encodeURIComponent).join('/')}`;
const SUMMARY_KEYS = ['id', 'name', 'description', 'status', 'trigger', 'localVersion', 'publishedVersion', 'updatedAt'];

/** The trigger type of the config a run uses: the draft's as the host reports it, or the same type in the published copy. */
function triggerOf(wf: { trigger: string | null; published: { config: WorkflowConfig } | null }, published: boolean): string | undefined {
  if (!published) return wf.trigger ?? undefined;
  const nodes = wf.published?.config.nodes ?? [];
  return (nodes.find((n) => n.type === wf.trigger) ?? nodes.find((n) => n.type.endsWith('_trigger')))?.type;
}

/**
 * The `workflows` commands `weir --remote <url>` runs through a host's management API, each printing what
 * the local command prints (the same result builders) with the same exit codes.
 */
const REMOTE: Record<string, RemoteRun> = {
  list: async (_, api) => listResult(await api.call('GET', '/workflows')),
  get: async (ctx, api) => getResult(await api.call('GET', path('workflows', ctx.args['workflow-id']!))),
  async status(ctx, api) {
    const wf = await api.call('GET', path('workflows', ctx.args['workflow-id']!));
    return statusResult(Object.fromEntries(SUMMARY_KEYS.filter((k) => k in wf).map((k) => [k, wf[k]])) as never);
  },
  publish: async (ctx, api) => publishResult(await api.call('POST', path('workflows', ctx.args['workflow-id']!, 'publish'), { force: !!ctx.flags.force })),
  async run(ctx, api) {
    const ref = ctx.args['workflow-id']!;
    const published = !!ctx.flags.published;
    // A flow only published (no draft on the host) still runs with --published, as locally.
    const wf = await api.call('GET', path('workflows', ref)).catch((err) => {
      if (published && err instanceof WeirError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    const trigger = wf ? triggerOf(wf, published) : undefined;
    const input = wf && (!published || wf.published) ? await runInput(ctx, trigger) : {};
    return runResult(ctx, await api.call('POST', path('workflows', ref, 'run'), { input, published }));
  },
  async executions(ctx, api) {
    const limit = executionsLimit(ctx);
    const ref = ctx.args['workflow-id']!;
    const items: ExecutionRecord[] = [];
    let cursor: string | null = ctx.flags.cursor ?? null;
    // Pages of at most MAX_PAGE (the API's largest) until the limit or the last page.
    do {
      const query = new URLSearchParams({ workflow: ref, limit: String(Math.min(MAX_PAGE, limit - items.length)), ...(ctx.flags.status ? { status: ctx.flags.status } : {}), ...(cursor ? { cursor } : {}) });
      const page: ExecutionPage = await api.call('GET', `/executions?${query}`);
      items.push(...page.items);
      cursor = page.nextCursor;
    } while (cursor && items.length < limit);
    return executionsResult(ctx, ref, { items, nextCursor: cursor });
  },
  execution: async (ctx, api) => executionResult(await api.call('GET', path('executions', ctx.args['execution-id']!))),
  cancel: async (ctx, api) => cancelResult(await api.call('POST', path('executions', ctx.args['execution-id']!, 'cancel'), {})),
  approve: async (ctx, api) => approveResult(await api.call('POST', path('executions', ctx.args['execution-id']!, 'approve'), approvalOf(ctx))),
  async retry(ctx, api) {
    const id = ctx.args['execution-id']!;
    return newExecution(ctx, await api.call('POST', path('executions', id, 'retry'), { latest: !!ctx.flags.latest }), `retry of ${id}`);
  },
};

/** The commands that work with `--remote`, as usage words. */
export const REMOTE_COMMANDS = Object.keys(REMOTE).map((name) => `workflows ${name}`);

/**
 * How a command runs against a remote host, or a USAGE error (exit 2) naming the commands that can.
 * @example
 * const run = remoteRun(path, command) // path: the group chain resolved from argv
 * const result = await run(ctx, remoteApi(url, token))
 */
export function remoteRun(groups: GroupSpec[], command: CommandSpec): RemoteRun {
  const run = groups.length === 2 && groups[1].name === 'workflows' ? REMOTE[command.name] : undefined;
  if (run) return run;
  const name = ['weir', ...groups.slice(1).map((g) => g.name), command.name].join(' ');
  throw new WeirError('USAGE', `--remote does not work with \`${name}\``, { hints: [`--remote works with: ${REMOTE_COMMANDS.map((c) => `weir ${c}`).join(', ')}`] });
}

/**
 * The run of a command given `--remote` (and `--token-file`): the host's client with the token from the file,
 * else `WEIR_TOKEN`. A command that cannot run remotely, or `--token-file` without `--remote`, is a USAGE error.
 * @example
 * const run = await remoteCommand(path, command, { url: 'http://10.0.0.5:8787' }, io)
 * const result = await run(ctx)
 */
export async function remoteCommand(groups: GroupSpec[], command: CommandSpec, given: { url?: string; tokenFile?: string }, io: CliIO): Promise<(ctx: CommandContext) => Promise<CommandResult>> {
  if (given.url === undefined) throw new WeirError('USAGE', '--token-file goes with --remote <url>', { hints: ['e.g. weir --remote http://127.0.0.1:8787 --token-file ./token workflows list'] });
  const run = remoteRun(groups, command);
  const token = given.tokenFile === undefined ? io.env.WEIR_TOKEN : (await readUserFile(io.cwd, given.tokenFile)).toString('utf8').trim();
  const api = remoteApi(given.url, token || undefined);
  return (ctx) => run(ctx, api);
}
