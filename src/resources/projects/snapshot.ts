import { WeirError } from '../../errors.js';
import type { Agents } from '../agents/index.js';
import type { Interfaces } from '../interfaces/index.js';
import type { Kv } from '../kv/index.js';
import type { Tables } from '../tables/index.js';
import type { Workflows } from '../workflows/index.js';
import { stableStringify } from '../../util/json.js';
import { createHash } from 'node:crypto';
import { readSources } from '../interfaces/files.js';

/** The project as files: path (`/`-separated) -> content. */
export type ProjectFiles = Map<string, Buffer>;

/** The managers whose state a project holds. */
export interface ProjectSources {
  workflows: Workflows;
  interfaces: Interfaces;
  agents: Agents;
  tables: Tables;
  kv: Kv;
}

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/** A resource name as a file name: kept when it is a plain name, percent-encoded otherwise. */
const fileName = (name: string) => (/^[\w][\w .-]*$/.test(name) && !name.endsWith('.') ? name : encodeURIComponent(name));

/** Drops fields that change without the resource changing (timestamps, counts). */
const stable = <T extends { createdAt?: string; updatedAt?: string }>(record: T) => {
  const { createdAt: _c, updatedAt: _u, ...rest } = record;
  return rest;
};

/**
 * The whole state of a weir home as files, for a git repository: workflow configs, interface sources, custom
 * agents and their prompts, table schemas and the KV namespace list. Secret values are never read.
 * @example
 * const files = await projectFiles({ workflows, interfaces, agents, tables, kv }, 'default')   // Map { 'workflows/orders.json' => Buffer, ... }
 */
export async function projectFiles(managers: ProjectSources, projectId: string): Promise<ProjectFiles> {
  const files: ProjectFiles = new Map();
  const manifest: Record<string, unknown> = { project: projectId, generator: 'weir' };

  // Workflows: the draft (what is being worked on), or the published config of a flow only in the cloud.
  const [drafts, published] = await Promise.all([managers.workflows.list(), managers.workflows.listPublished()]);
  const workflows: unknown[] = [];
  for (const summary of drafts) {
    const wf = await managers.workflows.getLocal(summary.id);
    const file = `workflows/${fileName(wf.name)}.json`;
    files.set(file, json(wf.config));
    workflows.push({ id: wf.id, name: wf.name, file, status: summary.status, publishedVersion: summary.publishedVersion, ...(wf.description ? { description: wf.description } : {}) });
  }
  const local = new Set(drafts.map((d) => d.id));
  for (const pub of published.filter((p) => !local.has(p.id)).sort((a, b) => a.name.localeCompare(b.name))) {
    const file = `workflows/${fileName(pub.name)}.json`;
    files.set(file, json(pub.config));
    workflows.push({ id: pub.id, name: pub.name, file, status: 'published', publishedVersion: pub.version });
  }
  manifest.workflows = workflows;

  // Interfaces: the source folder when it is on this machine, else the sources of the last deploy.
  const interfaces: unknown[] = [];
  for (const record of await managers.interfaces.list()) {
    const folder = await managers.interfaces.folder(record.id, record.dir ?? '.').catch(() => null);
    const sources = folder ? await readSources(folder.dir) : await managers.interfaces.deployedSources(record.id);
    const base = `interfaces/${fileName(record.name)}`;
    for (const [path, file] of sources ?? []) files.set(`${base}/${path}`, file.data);
    interfaces.push({ id: record.id, name: record.name, type: record.type, folder: base, deployedVersion: record.deployed?.version ?? null });
  }
  manifest.interfaces = interfaces;

  // Custom agents (built-in ones ship with weir) with their prompts as Markdown beside them.
  const agents = (await managers.agents.list()).filter((a) => !a.builtIn);
  for (const { id } of agents) {
    const { systemPrompt, ...agent } = await managers.agents.get(id);
    files.set(`agents/${fileName(id)}.json`, json(stable(agent)));
    files.set(`agents/${fileName(id)}.prompt.md`, Buffer.from(systemPrompt));
  }
  manifest.agents = agents.map((a) => a.id);

  const tables = (await managers.tables.list()).filter((t) => t.type === 'user');
  for (const t of tables) {
    const { name, description, columns, indexes } = await managers.tables.get(t.id);
    files.set(`tables/${fileName(name)}.json`, json({ name, ...(description ? { description } : {}), columns, indexes }));
  }
  manifest.tables = tables.map((t) => t.name);

  const namespaces = (await managers.kv.list()).map(({ id, name, description }) => ({ id, name, ...(description ? { description } : {}) }));
  files.set('kv/namespaces.json', json(namespaces));
  manifest.kv = namespaces.map((n) => n.name);
  files.set('weir.project.json', json(manifest));
  return files;
}

/** A hash of a snapshot: equal states give equal hashes, whatever the order files were found in. */
export function snapshotHash(files: ProjectFiles): string {
  const h = createHash('sha256');
  for (const path of [...files.keys()].sort()) h.update(stableStringify([path, createHash('sha256').update(files.get(path)!).digest('hex')]));
  return h.digest('hex');
}

/** Refuses a path that would leave the repository (defensive: names are encoded above). */
export function checkPath(path: string): void {
  if (path.split('/').some((s) => s === '..' || s === '') || path.startsWith('.git')) throw new WeirError('INTERNAL', `bad project path ${path}`);
}
