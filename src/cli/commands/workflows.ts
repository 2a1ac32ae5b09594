import { readUserFile, parseJson } from '../read-input.js';
import type { CommandResult, GroupSpec } from '../types.js';
import type { WorkflowConfig, WorkflowDetails, WorkflowSummary } from '../../resources/workflows/index.js';
import type { WebhookFormat } from '../../triggers/webhook/capture.js';
import { record } from '../output.js';
import { variableLines, webhookCommands } from './webhooks.js';
import { executionCommands } from './executions.js';

const id = [{ name: 'workflow-id', required: true }];

/** A name as one shell word, quoted when it holds anything beyond letters, digits and `._-`. */
const shellWord = (name: string) => (/^[\w.-]+$/.test(name) ? name : `'${name.replaceAll("'", `'\\''`)}'`);

/** What `workflows list` prints. */
export const listResult = (list: WorkflowSummary[]): CommandResult => ({ data: list, columns: ['id', 'name', 'status', 'trigger', 'publishedVersion', 'updatedAt'] });

/** What `workflows get` prints: the summary, the accepted webhook format, the flows it is the error flow of, the draft config. */
export function getResult(wf: WorkflowDetails & { webhookFormat: Pick<WebhookFormat, 'schema' | 'variables' | 'confirmedAt'> | null }): CommandResult {
  const { config, published, webhookFormat: format, errorFlowFor, ...summary } = wf;
  const formatText = format
    ? `webhookFormat: confirmed ${format.confirmedAt}, ${variableLines(format.variables)}`
    : 'webhookFormat: not confirmed (`weir workflows webhook-listen` captures one)';
  const users = errorFlowFor.map((u) => `${u.name} (${u.id}${u.published ? '' : ', draft only'})`);
  const errorFlowText = users.length ? `\nerror flow of: ${users.join(', ')}` : '';
  return { data: wf, text: `${record(summary)}\n${formatText}${errorFlowText}\nconfig:\n${JSON.stringify(config, null, 2)}` };
}

/** What `workflows status` prints. */
export const statusResult = (s: WorkflowSummary): CommandResult => ({ data: s, text: `${s.name} (${s.id}): ${s.status}` });

/** What `workflows publish` prints. */
export const publishResult = (r: { id: string; name: string; version: number }): CommandResult => ({ data: r, text: `published ${r.name} (${r.id}) as version ${r.version}` });

/** `weir workflows` (aliases `flow`, `f`): drafts, publishing and the sync status. */
export const workflows: GroupSpec = {
  name: 'workflows',
  aliases: ['workflow', 'flow', 'f'],
  summary: 'Manage workflows (flows): drafts, publishing and sync',
  commands: [
    {
      name: 'list',
      aliases: ['ls'],
      summary: "list the local drafts with their sync status against the published copies (in this home's `cloud` storage mount, not a hosted service)",
      async run(ctx) {
        return listResult(await (await ctx.weir()).workflows.list());
      },
    },
    {
      name: 'get',
      summary: 'complete details including configuration',
      args: id,
      async run(ctx) {
        const weir = await ctx.weir();
        const wf = await weir.workflows.get(ctx.args['workflow-id']!);
        const format = await weir.capture.format(wf.id);
        // The accepted webhook format without its sample request: what the flow's expressions can use.
        return getResult({ ...wf, webhookFormat: format && { schema: format.schema, variables: format.variables, confirmedAt: format.confirmedAt } });
      },
    },
    {
      name: 'status',
      summary: "sync status of the local draft against its published copy (in this home's `cloud` storage mount, not a hosted service): draft, synced, dirty or conflict",
      args: id,
      async run(ctx) {
        return statusResult(await (await ctx.weir()).workflows.status(ctx.args['workflow-id']!));
      },
    },
    {
      name: 'create',
      summary: 'create a workflow (starts with a manual trigger, or from --template)',
      args: [{ name: 'name', required: true }, { name: 'description' }],
      flags: {
        publish: { type: 'boolean', summary: 'publish it right after creation' },
        template: { type: 'string', summary: 'start from a template (`weir workflows templates` lists them)', placeholder: 'template' },
      },
      async run(ctx) {
        const { template } = ctx.flags;
        const wf = await (await ctx.weir()).workflows.create(ctx.args.name!, ctx.args.description, { publish: ctx.flags.publish, template });
        const text = `created workflow ${wf.id} (${wf.name}, ${wf.status})`;
        if (template === undefined) return { data: { id: wf.id, name: wf.name, status: wf.status }, text };
        const { templateNamed } = await import('../../resources/workflows/templates/index.js');
        // Created with --publish, the publish step is done already.
        const steps = templateNamed(template).next.filter((line) => !(ctx.flags.publish && line.startsWith('weir workflows publish')));
        const next = steps.map((line) => `  ${line.replaceAll('<flow>', shellWord(wf.name))}`);
        return { data: { id: wf.id, name: wf.name, status: wf.status, template }, text: `${text} from template ${template}\nnext:\n${next.join('\n')}` };
      },
    },
    {
      name: 'templates',
      summary: 'the templates `workflows create --template` starts from',
      async run() {
        const { templates, templateTrigger } = await import('../../resources/workflows/templates/index.js');
        return { data: templates.map((t) => ({ name: t.name, trigger: templateTrigger(t), summary: t.summary })), columns: ['name', 'trigger', 'summary'] };
      },
    },
    {
      name: 'sync',
      summary: "copy the published workflows (this home's `cloud` storage mount, not a hosted service) to local drafts",
      async run(ctx) {
        const r = await (await ctx.weir()).workflows.sync();
        return { data: r.workflows, text: `synced ${r.copied} workflow${r.copied === 1 ? '' : 's'}` };
      },
    },
    {
      name: 'save',
      summary: 'validate a JSON configuration file and save it as the local draft',
      args: [...id, { name: 'config-file', required: true }],
      async run(ctx) {
        const file = ctx.args['config-file']!;
        const config = parseJson((await readUserFile(ctx.io.cwd, file)).toString('utf8'), file);
        // Any JSON may reach `save`: it checks the shape itself and lists every problem.
        const s = await (await ctx.weir()).workflows.save(ctx.args['workflow-id']!, config as WorkflowConfig);
        return { data: s, text: `saved ${s.name} (${s.id}): ${s.status}` };
      },
    },
    {
      name: 'publish',
      summary: 'publish the local configuration',
      args: id,
      flags: { force: { type: 'boolean', summary: 'publish even in conflict, overwriting the newer cloud version' } },
      async run(ctx) {
        return publishResult(await (await ctx.weir()).workflows.publish(ctx.args['workflow-id']!, { force: ctx.flags.force }));
      },
    },
    {
      name: 'diff',
      summary: 'differences between the published and the local configuration: a summary, then a unified diff of the JSON',
      args: id,
      async run(ctx) {
        const { formatChanges } = await import('../../resources/workflows/diff.js');
        const { colorDiff } = await import('../../util/line-diff.js');
        const d = await (await ctx.weir()).workflows.diff(ctx.args['workflow-id']!);
        // Colour only for a person at a terminal who has not asked for none (https://no-color.org).
        const patch = ctx.io.stdout.isTTY && !ctx.io.env.NO_COLOR ? colorDiff(d.patch) : d.patch;
        return { data: d, text: `${d.name} (${d.id}), ${d.status}, published -> local:\n${formatChanges(d.changes)}${patch && `\n\n${patch.trimEnd()}`}` };
      },
    },
    {
      name: 'delete',
      aliases: ['rm'],
      summary: 'delete a local workflow (--unpublish also removes the published copy)',
      args: id,
      flags: { unpublish: { type: 'boolean', summary: 'also remove the published copy (its webhook answers 404)' } },
      async run(ctx) {
        const r = await (await ctx.weir()).workflows.delete(ctx.args['workflow-id']!, { unpublish: ctx.flags.unpublish });
        return { data: r, text: `deleted ${r.id}${r.unpublished ? ' (unpublished)' : ''}` };
      },
    },
    ...webhookCommands,
    ...executionCommands,
  ],
};
