import type { NodeDefinition } from './define.js';
import type { NodeRegistry } from './index.js';

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A node type's own config keys as `` `key` `` words, the required ones marked. */
function configKeys(def: NodeDefinition<any>): string {
  const required = new Set(def.config?.required ?? []);
  const keys = Object.keys(def.config?.properties ?? {}).map((key) => `\`${key}\`${required.has(key) ? ' (required)' : ''}`);
  return keys.join(', ') || 'none';
}

function row(def: NodeDefinition<any>): string {
  const handles = Array.isArray(def.handles) ? def.handles.map((h) => `\`${h}\``).join(', ') : def.handles ? 'from its config' : '';
  return `| \`${def.type}\` | ${cell(def.docs?.summary ?? '')} | ${configKeys(def)} | ${handles} | ${cell(def.docs?.output ?? '')} |`;
}

/**
 * The node and trigger tables of docs/flows.md, made from the registry's `docs` and config schemas;
 * `npm run generate` writes them between the page's `<!-- generated: nodes -->` and `<!-- generated: triggers -->`
 * markers, and a test fails when the page differs.
 * @example
 * const { nodes, triggers } = nodeTables(createNodeRegistry())
 */
export function nodeTables(registry: NodeRegistry): { nodes: string; triggers: string } {
  const defs = [...registry.values()];
  const table = (data: string, list: NodeDefinition<any>[]) =>
    ['| Type | What it does | Config | Handles | ' + data + ' |', '| --- | --- | --- | --- | --- |', ...list.map(row)].join('\n');
  return {
    nodes: table('Data (`$node.<id>.data`)', defs.filter((d) => !d.trigger)),
    triggers: table('Data (`$input`)', defs.filter((d) => d.trigger)),
  };
}

/**
 * `page` with the text between `<!-- generated: <name> -->` and the next `<!-- /generated -->` replaced by
 * `content`; throws when the page has no such markers, so a page cannot silently stop being generated.
 * @example
 * withGenerated(readFileSync('docs/flows.md', 'utf8'), 'nodes', nodeTables(registry).nodes)
 */
export function withGenerated(page: string, name: string, content: string): string {
  const start = `<!-- generated: ${name} -->`;
  const from = page.indexOf(start);
  const to = page.indexOf('<!-- /generated -->', from);
  if (from < 0 || to < 0) throw new Error(`the page has no ${start} ... <!-- /generated --> markers`);
  return `${page.slice(0, from + start.length)}\n${content}\n${page.slice(to)}`;
}
