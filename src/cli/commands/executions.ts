import { WeirError } from '../../errors.js';
import type { ExecutionRecord, ExecutionStatus, UsageRecord } from '../../flow/types.js';
import type { ExecutionPage } from '../../types/executions.js';
import type { ApprovalAnswer } from '../../types/waits.js';
import { MAX_PAGE } from '../../resources/executions/cursor.js';
import { record, table } from '../output.js';
import { workflowToRun } from '../../flow/run.js';
import { parseJson, readUserFile } from '../read-input.js';
import { webhookRequestInput } from '../webhook-request.js';
import type { CommandContext, CommandResult, CommandSpec } from '../types.js';

const id = [{ name: 'workflow-id', required: true }];
const json = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v ?? null, null, 2));
const clip = (s: string, n = 60) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

/** The text given with `--input` or `--input-file`, and where it came from; null when neither was given. */
async function readInputText(ctx: CommandContext): Promise<{ text: string; from: string } | null> {
  const { input, 'input-file': file } = ctx.flags;
  if (input !== undefined && file !== undefined) throw new WeirError('USAGE', 'give --input or --input-file, not both');
  if (file !== undefined) return { text: (await readUserFile(ctx.io.cwd, file)).toString('utf8'), from: file };
  return input === undefined ? null : { text: input, from: '--input' };
}

/**
 * The input of `workflows run`: for a webhook flow, what a request with that body (and `--method`,
 * `--header`, `--query`) would give it; for any other trigger the JSON itself, or `{}`.
 */
export async function runInput(ctx: CommandContext, trigger: string | undefined): Promise<unknown> {
  const given = await readInputText(ctx);
  const { method, header, query } = ctx.flags;
  if (trigger === 'webhook_trigger') return webhookRequestInput({ body: given ?? undefined, method, headers: header, query });
  const requestFlags = (['method', 'header', 'query'] as const).filter((f) => ctx.flags[f] !== undefined);
  if (requestFlags.length) {
    throw new WeirError('USAGE', `--${requestFlags[0]} applies to webhook flows only; this flow's trigger is ${trigger ?? 'none'}`, {
      hints: ['give the input as JSON with --input'],
    });
  }
  return given ? parseJson(given.text, given.from) : {};
}

/** What `workflows run` prints of the execution it ran: the result, that it waits, or the failure (exit 1). */
export function runResult(ctx: CommandContext, r: ExecutionRecord): CommandResult {
  if (r.status === 'success') return { data: { executionId: r.id, status: r.status, result: r.result }, text: json(r.result) };
  if (r.status === 'waiting') {
    return { data: { executionId: r.id, status: r.status }, text: `execution ${r.id} is waiting: a running \`weir serve\` on this home continues it (see \`weir workflows execution ${r.id}\`)` };
  }
  if (ctx.json) return { data: { executionId: r.id, status: r.status, error: r.error, ...(r.errorFlow ? { errorFlow: r.errorFlow } : {}) }, exitCode: 1 };
  throw new WeirError('EXECUTION_FAILED', `execution ${r.id} ${r.status === 'cancelled' ? 'was cancelled' : 'failed'}${r.error?.node ? ` at ${r.error.node}` : ''}: ${r.error?.message ?? r.status}`, {
    hints: [`run \`weir workflows execution ${r.id}\` to see each node's output`, ...(r.errorFlow ? [`error flow ${errorFlowLine(r.errorFlow)}`] : [])],
  });
}

/**
 * Up to `limit` executions of a local or published workflow, or of a deleted one by its id (else NOT_FOUND),
 * from `cursor` on, of one status or of any; pages of the list are read until `limit` are found.
 */
async function executionsOf(ctx: CommandContext, ref: string, options: { limit: number; status?: ExecutionStatus; cursor?: string }): Promise<ExecutionPage> {
  const weir = await ctx.weir();
  let unknown: unknown;
  const local = await weir.workflows.getLocal(ref).catch((err) => void (unknown = err));
  const id = local?.id ?? (await weir.workflows.findPublished(ref))?.id;
  const items: ExecutionRecord[] = [];
  let cursor = options.cursor;
  do {
    const page = await weir.executions.page({ workflowId: id ?? ref, status: options.status, cursor, limit: Math.min(MAX_PAGE, options.limit - items.length) });
    items.push(...page.items);
    cursor = page.nextCursor ?? undefined;
  } while (cursor && items.length < options.limit);
  // Neither a workflow nor the id of a deleted one with executions: the lookup's NOT_FOUND, which names the nearest workflows.
  if (!id && !items.length && !(await weir.executions.page({ workflowId: ref, limit: 1 })).items.length) throw unknown;
  return { items, nextCursor: cursor ?? null };
}

/** What each node logged, under the node's id; nothing when no node logged. */
function nodeLogs(r: ExecutionRecord): string {
  const parts = Object.entries(r.nodes)
    .filter(([, n]) => n.logs?.length)
    .map(([node, n]) => `${node}:\n${n.logs!.map((l) => `  ${l.at} ${l.level.padEnd(5)} ${l.message.replaceAll('\n', '\n    ')}`).join('\n')}`);
  return parts.length ? `\n\nlogs:\n${parts.join('\n')}` : '';
}

const summary = (r: ExecutionRecord) => ({
  id: r.id,
  status: r.status,
  trigger: r.trigger,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
  error: r.error ?? null,
  ...(r.queuedFor ? { queuedFor: r.queuedFor } : {}),
  ...(r.debouncedInto ? { debouncedInto: r.debouncedInto } : {}),
});

/** A status as the text tables print it: a queued execution says what it waits for. */
const statusText = ({ status, queuedFor, debouncedInto }: Pick<ExecutionRecord, 'status' | 'queuedFor' | 'debouncedInto'>) =>
  debouncedInto ? `debounced into ${debouncedInto}` : queuedFor && status === 'queued' ? `queued (${queuedFor.rule}${queuedFor.key === null ? '' : ` ${JSON.stringify(queuedFor.key)}`})` : status;

/**
 * How a new execution (retry, rerun) ended: its result, or a failure (exit 1) naming it; `--json` prints the
 * record either way.
 */
export function newExecution(ctx: CommandContext, r: ExecutionRecord, of: string): CommandResult {
  if (r.status === 'success') return { data: r, text: `execution ${r.id} (${of}) succeeded, result:\n${json(r.result)}` };
  if (ctx.json) return { data: r, exitCode: 1 };
  throw new WeirError('EXECUTION_FAILED', `execution ${r.id} (${of}) ${r.status === 'cancelled' ? 'was cancelled' : 'failed'}${r.error?.node ? ` at ${r.error.node}` : ''}: ${r.error?.message ?? r.status}`, {
    hints: [`run \`weir workflows execution ${r.id}\` to see each node's output`],
  });
}

const executionId = [{ name: 'execution-id', required: true }];

/** What `workflows cancel` prints of the cancelled execution. */
export const cancelResult = (r: ExecutionRecord): CommandResult => ({ data: r, text: `cancelled execution ${r.id} (${r.workflowName})` });

/** What `workflows approve` prints of a decision. */
export const approveResult = (a: ApprovalAnswer): CommandResult => ({
  data: a,
  text: `${a.approved ? 'approved' : 'denied'} ${a.tool ?? 'the tool call'} of execution ${a.executionId}${a.reason ? ` (${a.reason})` : ''}`,
});

/** The body of an approval (`workflows approve`, local or remote). */
export const approvalOf = (ctx: CommandContext): { approve: boolean; reason?: string } => ({ approve: !ctx.flags.deny, ...(ctx.flags.reason ? { reason: ctx.flags.reason as string } : {}) });

/** `workflows cancel`, `approve`, `retry`, `rerun`: control of one execution by its id. */
const controlCommands: CommandSpec[] = [
  {
    name: 'cancel',
    summary: 'cancel a queued, running or waiting execution',
    args: executionId,
    async run(ctx) {
      return cancelResult(await (await ctx.weir()).executions.cancel(ctx.args['execution-id']!));
    },
  },
  {
    name: 'approve',
    summary: 'approve (or --deny) the tool call a waiting execution waits for',
    args: executionId,
    flags: {
      deny: { type: 'boolean', summary: 'deny it: the tool does not run, the denial is its result' },
      reason: { type: 'string', summary: 'why (reported with a denial)', placeholder: 'text' },
    },
    async run(ctx) {
      return approveResult(await (await ctx.weir()).executions.approve(ctx.args['execution-id']!, approvalOf(ctx)));
    },
  },
  {
    name: 'retry',
    summary: 'retry a failed or cancelled execution from its failed node, as a new execution',
    args: executionId,
    flags: { latest: { type: 'boolean', summary: 'run the current published config (the local draft for a draft run), not the one it ran' } },
    async run(ctx) {
      const id = ctx.args['execution-id']!;
      const r = await (await ctx.weir()).executions.retry(id, { latest: !!ctx.flags.latest });
      return newExecution(ctx, r, `retry of ${id}`);
    },
  },
  {
    name: 'rerun',
    summary: "run an execution's trigger input again as a new execution (published config, or --draft)",
    args: executionId,
    flags: { draft: { type: 'boolean', summary: 'run the local draft instead of the published config' } },
    async run(ctx) {
      const id = ctx.args['execution-id']!;
      const r = await (await ctx.weir()).executions.rerun(id, { draft: !!ctx.flags.draft });
      return newExecution(ctx, r, `rerun of ${id}`);
    },
  },
];

/** `workflows run`, `workflows executions`, `workflows execution`: run a flow; list, show executions. */
export const executionCommands: CommandSpec[] = [
  {
    name: 'run',
    summary: "run a workflow (local draft, or --published) with an input and print its result; never debounced, it waits queued under the flow's concurrency and rate limit of the process running it (this command's, or the host's with --remote)",
    args: id,
    flags: {
      input: { type: 'string', summary: 'the input as JSON (default {}); for a webhook flow, the request body', placeholder: 'json' },
      'input-file': { type: 'string', summary: 'read the input (a webhook flow: the request body) from a file', placeholder: 'file' },
      published: { type: 'boolean', summary: 'run the published copy instead of the local draft' },
      method: { type: 'string', summary: 'webhook flows: the request method (default POST)', placeholder: 'method' },
      header: { type: 'strings', summary: 'webhook flows: a request header, repeatable', placeholder: 'name=value' },
      query: { type: 'strings', summary: 'webhook flows: a query parameter, repeatable', placeholder: 'name=value' },
    },
    async run(ctx) {
      const weir = await ctx.weir();
      const workflow = await workflowToRun(weir.workflows, ctx.args['workflow-id']!, !!ctx.flags.published);
      const trigger = workflow.config.nodes.find((n) => weir.nodes.get(n.type)?.trigger)?.type;
      return runResult(ctx, await weir.runtime.run({ workflow, input: await runInput(ctx, trigger), trigger: 'manual' }));
    },
  },
  {
    name: 'executions',
    summary: 'list executions of a workflow, newest first (a page at a time with --cursor)',
    args: id,
    flags: {
      limit: { type: 'number', summary: 'how many (default 20)', placeholder: 'n' },
      status: { type: 'string', summary: 'only those of this status (queued, running, waiting, success, error, cancelled, debounced)', placeholder: 'status' },
      cursor: { type: 'string', summary: 'the page after the one that printed this cursor', placeholder: 'cursor' },
    },
    async run(ctx) {
      const ref = ctx.args['workflow-id']!;
      return executionsResult(ctx, ref, await executionsOf(ctx, ref, { limit: executionsLimit(ctx), status: ctx.flags.status, cursor: ctx.flags.cursor }));
    },
  },
  {
    name: 'execution',
    summary: "one execution with each node's output record",
    args: [{ name: 'execution-id', required: true }],
    async run(ctx) {
      return executionResult(await (await ctx.weir()).executions.get(ctx.args['execution-id']!));
    },
  },
  ...controlCommands,
];

/** `--limit` of `workflows executions` (default 20). */
export function executionsLimit(ctx: CommandContext): number {
  const limit = ctx.flags.limit ?? 20;
  if (!Number.isInteger(limit) || limit < 1) throw new WeirError('USAGE', '--limit must be a whole number >= 1');
  return limit;
}

/** What `workflows executions` prints of the executions listed. */
export function executionsResult(ctx: CommandContext, ref: string, page: ExecutionPage): CommandResult {
  const list = page.items.map(summary);
  const rows = list.map((r) => ({ ...r, status: statusText(r), error: r.error ? clip(r.error.message) : null }));
  // `--json` prints the list alone (its documented shape); the next page's cursor goes to stderr then.
  const same = `${ctx.flags.status ? ` --status ${ctx.flags.status}` : ''}${ctx.flags.limit ? ` --limit ${ctx.flags.limit}` : ''}`;
  const more = page.nextCursor ? `next page: weir workflows executions ${ref}${same} --cursor ${page.nextCursor}` : '';
  if (more && ctx.json) ctx.io.stderr.write(`${more}\n`);
  return { data: list, text: `${table(rows, ['id', 'status', 'trigger', 'startedAt', 'finishedAt', 'error'])}${more ? `\n\n${more}` : ''}` };
}

/** The execution that started this one, those it started and its error flow's, as `workflows execution` prints them. */
const family = (r: ExecutionRecord): Record<string, string> => ({
  ...(r.parentExecutionId ? { parent: `${r.parentExecutionId} (${r.parentNodeId})` } : {}),
  ...(r.children?.length ? { children: r.children.map((c) => `${c.executionId} (${c.nodeId})`).join(', ') } : {}),
  ...(r.errorFlow ? { errorFlow: errorFlowLine(r.errorFlow) } : {}),
});

/** `alerts: exec_…`, or `alerts did not run: <why>`. */
const errorFlowLine = (e: NonNullable<ExecutionRecord['errorFlow']>) => (e.executionId ? `${e.flow}: ${e.executionId}` : `${e.flow} did not run: ${e.problem}`);

/** `1234 tokens (prompt 1000, completion 234) by gpt-4o-mini 1200, llama3.2 34`: one line of a usage record. */
const usageLine = (u: UsageRecord): string => {
  const models = Object.entries(u.byModel);
  const by = models.length > 1 ? ` by ${models.map(([model, c]) => `${model} ${c.totalTokens}`).join(', ')}` : models.length ? ` by ${models[0][0]}` : '';
  return `${u.totalTokens} tokens (prompt ${u.promptTokens}, completion ${u.completionTokens})${by}`;
};

/** What `workflows execution` prints of one execution. */
export function executionResult(r: ExecutionRecord): CommandResult {
  const { queuedFor: _q, ...shown } = summary(r);
  const asked = r.status === 'waiting' ? Object.values(r.nodes).find((n) => n.status === 'waiting' && n.wait?.kind === 'approval')?.wait : undefined;
  const approval = asked?.kind === 'approval' ? { status: `waiting for approval of ${asked.tool}`, approve: `${clip(JSON.stringify(asked.input) ?? '')} (weir workflows approve ${r.id} [--deny] [--reason <text>])` } : null;
  const head = record({ ...shown, status: approval?.status ?? statusText(r), ...(approval ? { approve: approval.approve } : {}), workflow: `${r.workflowName} (${r.workflowId})`, version: r.version, ...(r.retryOf ? { retryOf: r.retryOf } : {}), ...(r.rerunOf ? { rerunOf: r.rerunOf } : {}), ...family(r), ...(r.usage ? { usage: usageLine(r.usage) } : {}), error: r.error ? `${r.error.node ? `${r.error.node}: ` : ''}${r.error.message}` : null });
  // The tokens column is there when a node reported usage (an agent): the other nodes' cells stay empty.
  const tokens = Object.values(r.nodes).some((n) => n.usage);
  const nodes = Object.entries(r.nodes).map(([node, n]) => ({
    node,
    status: n.status,
    startedAt: n.startedAt,
    finishedAt: n.finishedAt,
    ...(tokens ? { tokens: n.usage ? String(n.usage.totalTokens) : '' } : {}),
    data: n.error ? `error: ${clip(n.error.message)}` : clip(JSON.stringify(n.data) ?? ''),
  }));
  return { data: r, text: `${head}\n\nnodes:\n${table(nodes)}${nodeLogs(r)}\n\ninput:\n${json(r.input)}\n\nresult:\n${json(r.result)}` };
}
