import { WeirError } from '../../errors.js';
import { handlesOf } from '../../nodes/define.js';
import { createNodeRegistry, type NodeDefinition } from '../../nodes/index.js';
import { nodeConfigSchema } from '../../nodes/schema.js';
import { didYouMean } from '../../util/nearest.js';
import type { CommandSpec } from '../types.js';

/** One type in full: what `weir nodes <type>` prints. */
function describeType(def: NodeDefinition<any>) {
  const handles = typeof def.handles === 'function' ? 'from its config' : handlesOf(def, {});
  return {
    type: def.type,
    trigger: Boolean(def.trigger),
    summary: def.docs?.summary ?? '',
    output: def.docs?.output ?? '',
    handles,
    config: nodeConfigSchema(def),
    example: def.docs?.example ?? null,
  };
}

function typeText(d: ReturnType<typeof describeType>): string {
  const keys = Object.entries(d.config?.properties ?? {}).map(([key, p]) => {
    const kind = p.enum ? p.enum.map((e) => JSON.stringify(e)).join(' | ') : [p.type ?? 'any'].flat().join(' | ');
    return `  ${key} (${kind}${d.config?.required?.includes(key) ? ', required' : ''}): ${p.description ?? ''}`;
  });
  return [
    `${d.type}${d.trigger ? ' (trigger)' : ''}: ${d.summary}`,
    `data: ${d.output}`,
    ...(d.handles ? [`handles: ${typeof d.handles === 'string' ? d.handles : d.handles.join(', ')}`] : []),
    'config:',
    ...(keys.length ? keys : ['  (none)']),
    `example: ${JSON.stringify(d.example)}`,
  ].join('\n');
}

/** `weir nodes [type]`: the node types this weir knows, or one type's config schema, handles and example. */
export const nodes: CommandSpec = {
  name: 'nodes',
  summary: "the node types (type, trigger, summary), or one type's config keys, handles and example config",
  args: [{ name: 'type' }],
  async run(ctx) {
    const registry = createNodeRegistry();
    const type = ctx.args.type;
    if (type === undefined) {
      const data = [...registry.values()].map((d) => ({ type: d.type, trigger: Boolean(d.trigger), summary: d.docs?.summary ?? '' }));
      return { data, columns: ['type', 'trigger', 'summary'] };
    }
    const def = registry.get(type);
    if (!def) throw new WeirError('NOT_FOUND', `unknown node type "${type}"${didYouMean(type, [...registry.keys()])}`, { hints: ['run `weir nodes` for the list'] });
    const data = describeType(def);
    return { data, text: typeText(data) };
  },
};
