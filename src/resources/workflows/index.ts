import type { WeirBus } from '../../events.js';
import { WeirError } from '../../errors.js';
import type { NodeRegistry } from '../../nodes/index.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import { newId, newToken, sha256 } from '../../util/ids.js';
import { isErrorFlow } from '../../triggers/error/node.js';
import { hashJson } from '../../util/json.js';
import { didYouMean } from '../../util/nearest.js';
import { configPatch, diffConfigs, type Change } from './diff.js';
import { checkErrorFlowRef, errorFlowUsers } from './error-flow.js';
import { checkCallCycle } from './call-cycle.js';
import { contentHash, syncAction, syncStatus } from './sync.js';
import { starterConfig, templateNamed } from './templates/index.js';
import type { WorkflowConfig, LocalWorkflow, PublishedWorkflow, WorkflowDetails, WorkflowSummary } from './types.js';
import { validateConfig, type ConfigCheck } from './validate.js';
import { namedRecords } from './named-records.js';
import { versionClaims } from './versions.js';
import type { Workflows } from '../../types/workflows.js';

export type { Workflows } from '../../types/workflows.js';

export * from './types.js';
export { validateConfig, type ConfigCheck } from './validate.js';
export { diffConfigs, formatChanges, type Change } from './diff.js';

export interface WorkflowsOptions {
  storage: Storages;
  nodes: NodeRegistry;
  bus: WeirBus;
  /** Extra save-time checks (the expression parser registers one). */
  checks?: ConfigCheck[];
}

/**
 * The workflow manager: drafts in the `local` mount, published copies in `cloud`, with the sync-status
 * state machine (draft, synced, dirty, conflict). Workflows are addressed by id or by (unique) name.
 * @example
 * const { id } = await weir.workflows.create('orders')
 * await weir.workflows.save(id, config)
 * await weir.workflows.publish(id)
 */
export function createWorkflows({ storage, nodes, bus, checks = [] }: WorkflowsOptions): Workflows {
  const local: KeyValueStorage = storage.view('local', 'workflows');
  const cloud: KeyValueStorage = storage.view('cloud', 'workflows');
  const tokens: KeyValueStorage = storage.view('cloud', 'webhook-tokens');
  const versions = versionClaims(storage.view('cloud', 'workflow-versions'));
  const draftRecords = namedRecords<LocalWorkflow>(local, storage.view('local', 'workflow-names'));
  const publishedRecords = namedRecords<PublishedWorkflow>(cloud, storage.view('cloud', 'workflow-names'));
  const now = () => new Date().toISOString();

  async function writeLocal(wf: LocalWorkflow): Promise<void> {
    await draftRecords.index(wf.name, wf.id);
    await local.setItem(wf.id, wf);
  }

  /** Names and ids of every local and published workflow: what an unknown reference is compared with. */
  async function knownRefs(): Promise<string[]> {
    const [drafts, published] = await Promise.all([draftRecords.all(), publishedRecords.all()]);
    return [...drafts, ...published].flatMap((wf) => [wf.name, wf.id]);
  }

  async function requireLocal(ref: string): Promise<LocalWorkflow> {
    const wf = await draftRecords.find(ref);
    if (wf) return wf;
    const remote = await publishedRecords.find(ref);
    throw new WeirError('NOT_FOUND', `workflow "${ref}" not found${remote ? '' : didYouMean(ref, await knownRefs())}`, {
      hints: [remote ? 'it is published: run `weir workflows sync` to copy it here' : 'run `weir workflows list` to see workflow ids'],
    });
  }

  const triggerOf = (config: WorkflowConfig) => config.nodes.find((n) => nodes.get(n.type)?.trigger)?.type ?? null;

  function summarize(wf: LocalWorkflow, pub: PublishedWorkflow | null): WorkflowSummary {
    return {
      id: wf.id,
      name: wf.name,
      ...(wf.description ? { description: wf.description } : {}),
      status: syncStatus(wf, pub),
      trigger: triggerOf(wf.config),
      localVersion: wf.base?.version ?? null,
      publishedVersion: pub?.version ?? null,
      updatedAt: wf.updatedAt,
    };
  }

  function check(config: unknown): WorkflowConfig {
    const problems = validateConfig(config, nodes, checks);
    if (problems.length) {
      throw new WeirError('INVALID_CONFIG', `invalid workflow config (${problems.length} problem${problems.length > 1 ? 's' : ''}):\n${problems.map((p) => `  - ${p.path ? `${p.path}: ` : ''}${p.message}`).join('\n')}`, { details: problems });
    }
    return config as WorkflowConfig;
  }

  const api = {
    /** Every local workflow with its sync status, by name. */
    async list(): Promise<WorkflowSummary[]> {
      const [drafts, published] = await Promise.all([draftRecords.all(), publishedRecords.all()]);
      const byId = new Map(published.map((p) => [p.id, p]));
      return drafts.map((wf) => summarize(wf, byId.get(wf.id) ?? null)).sort((a, b) => a.name.localeCompare(b.name));
    },

    /** Complete details of one workflow, including both configs. */
    async get(ref: string): Promise<WorkflowDetails> {
      const wf = await requireLocal(ref);
      const pub = await cloud.getItem<PublishedWorkflow>(wf.id);
      // Only an error flow is ever run as one (publish refuses to name any other flow), so only an error flow
      // reads every flow to find its users: opening any other flow costs the same with 10 flows or 10,000.
      const errorFlowFor = isErrorFlow(wf.config) || (pub && isErrorFlow(pub.config)) ? errorFlowUsers(wf, pub, await draftRecords.all(), await publishedRecords.all()) : [];
      return { ...summarize(wf, pub), webhookToken: wf.webhookToken, config: wf.config, published: pub, createdAt: wf.createdAt, errorFlowFor };
    },

    /** The draft record as stored (for subsystems that need the raw config). */
    getLocal: requireLocal,

    async status(ref: string) {
      const wf = await requireLocal(ref);
      return summarize(wf, await cloud.getItem<PublishedWorkflow>(wf.id));
    },

    /** Creates a draft (names are unique) from `config`, a `template`'s config or the starter; `publish: true` publishes it at once. */
    async create(name: string, description?: string, options: { publish?: boolean; config?: WorkflowConfig; template?: string } = {}) {
      if (!name.trim()) throw new WeirError('INVALID_INPUT', 'a workflow name must not be empty');
      const template = options.template === undefined ? undefined : templateNamed(options.template);
      const taken = await Promise.all([draftRecords.find(name), publishedRecords.find(name)]);
      if (taken.some((w) => w?.name === name)) {
        throw new WeirError('EXISTS', `a workflow named "${name}" already exists`, { hints: ['workflow names are unique'] });
      }
      const config = options.config ? check(options.config) : template ? check(template.config()) : starterConfig();
      const time = now();
      const wf: LocalWorkflow = {
        id: newId('wf'),
        name,
        ...(description ? { description } : {}),
        config,
        webhookToken: newToken(),
        base: null,
        createdAt: time,
        updatedAt: time,
      };
      await tokens.setItem(sha256(wf.webhookToken), { id: wf.id });
      await writeLocal(wf);
      bus.emit('workflow:created', { id: wf.id, name });
      if (options.publish) await api.publish(wf.id);
      return { id: wf.id, name, webhookToken: wf.webhookToken, status: options.publish ? 'synced' : 'draft' };
    },

    /** Every problem `save` would report for a config ([] when it would save), nothing saved. */
    validate: (config: unknown) => validateConfig(config, nodes, checks),

    /**
     * Renames a draft and/or replaces its description (`''` removes it); a name another workflow has (draft or
     * published copy) is EXISTS. The published copy keeps its name and description until the next publish.
     */
    async update(ref: string, changes: { name?: string; description?: string }): Promise<WorkflowSummary> {
      const wf = await requireLocal(ref);
      const name = changes.name ?? wf.name;
      if (!name.trim()) throw new WeirError('INVALID_INPUT', 'a workflow name must not be empty');
      if (name !== wf.name) {
        const taken = await Promise.all([draftRecords.find(name), publishedRecords.find(name)]);
        if (taken.some((w) => w?.name === name && w.id !== wf.id)) {
          throw new WeirError('EXISTS', `a workflow named "${name}" already exists`, { hints: ['workflow names are unique'] });
        }
      }
      const description = changes.description ?? wf.description;
      if (name === wf.name && (description || undefined) === wf.description) return summarize(wf, await cloud.getItem<PublishedWorkflow>(wf.id));
      const { description: _old, ...rest } = wf;
      const updated: LocalWorkflow = { ...rest, name, ...(description ? { description } : {}), updatedAt: now() };
      await writeLocal(updated);
      // The old name's index entry goes once the new one is written: a lookup by either name finds it meanwhile.
      if (name !== wf.name) await draftRecords.unindex(wf.name);
      bus.emit('workflow:saved', { id: wf.id });
      return summarize(updated, await cloud.getItem<PublishedWorkflow>(wf.id));
    },

    /** Validates and saves a config as the draft; every problem is listed at once (JSON read from a file may be passed as it is). */
    async save(ref: string, config: WorkflowConfig) {
      const wf = await requireLocal(ref);
      const valid = check(config);
      const updated: LocalWorkflow = { ...wf, config: valid, updatedAt: now() };
      await local.setItem(wf.id, updated);
      bus.emit('workflow:saved', { id: wf.id });
      return summarize(updated, await cloud.getItem<PublishedWorkflow>(wf.id));
    },

    /**
     * Publishes the draft; refused in `conflict` unless `force`. Concurrent publishes (other processes too)
     * each get their own version number, and none is lost (see versions.ts).
     */
    async publish(ref: string, options: { force?: boolean } = {}) {
      const next = versions.race();
      let wf: LocalWorkflow;
      let version: number | null;
      do {
        // Read again on every turn: the publish that took the number may have changed the draft's base.
        wf = await requireLocal(ref);
        const current = await cloud.getItem<PublishedWorkflow>(wf.id);
        if (current && syncStatus(wf, current) === 'conflict' && !options.force) {
          throw new WeirError('CONFLICT', `workflow "${wf.name}" is in conflict: the cloud holds version ${current.version}, your draft is based on ${wf.base?.version}`, {
            hints: [`run \`weir workflows diff ${wf.id}\` to compare, then \`weir workflows publish ${wf.id} --force\` to overwrite`],
          });
        }
        check(wf.config);
        await checkErrorFlowRef(wf, { draft: draftRecords.find, published: publishedRecords.find, known: knownRefs });
        await checkCallCycle(wf, publishedRecords.find);
        version = await next(wf.id, current?.version ?? 0);
      } while (version === null);
      const hash = hashJson(wf.config);
      const pub: PublishedWorkflow = {
        id: wf.id,
        name: wf.name,
        ...(wf.description ? { description: wf.description } : {}),
        config: wf.config,
        webhookToken: wf.webhookToken,
        version,
        hash,
        publishedAt: now(),
      };
      await tokens.setItem(sha256(wf.webhookToken), { id: wf.id });
      await publishedRecords.index(pub.name, pub.id);
      // The draft's base before the published copy: the next number's publish starts once the copy is
      // written, so the drafts' bases are written in the order of the versions too.
      await local.setItem(wf.id, { ...wf, base: { version: pub.version, hash: contentHash(wf.config) } });
      await cloud.setItem(wf.id, pub);
      bus.emit('workflow:published', { id: wf.id, version: pub.version });
      return { id: wf.id, name: wf.name, version: pub.version, status: 'synced' as const };
    },

    /** Copies published workflows into local storage; drafts with local changes are kept. */
    async sync() {
      const [published, drafts] = await Promise.all([publishedRecords.all(), draftRecords.all()]);
      const byId = new Map(drafts.map((d) => [d.id, d]));
      const copied: string[] = [];
      for (const pub of published) {
        const mine = byId.get(pub.id) ?? null;
        if (syncAction(mine, pub) !== 'copy') continue;
        const time = now();
        await writeLocal({
          id: pub.id,
          name: pub.name,
          ...(pub.description ? { description: pub.description } : {}),
          config: pub.config,
          webhookToken: pub.webhookToken,
          base: { version: pub.version, hash: contentHash(pub.config) },
          createdAt: mine?.createdAt ?? pub.publishedAt,
          updatedAt: time,
        } satisfies LocalWorkflow);
        copied.push(pub.id);
      }
      bus.emit('workflow:synced', { ids: copied });
      const list = await api.list();
      return { copied: copied.length, workflows: list };
    },

    /** Changes between the published config (or nothing) and the draft, and the unified diff of their JSON (`patch`). */
    async diff(ref: string): Promise<{ id: string; name: string; status: string; changes: Change[]; patch: string }> {
      const wf = await requireLocal(ref);
      const pub = await cloud.getItem<PublishedWorkflow>(wf.id);
      const changes = diffConfigs(pub?.config ?? null, wf.config);
      const patch = changes.length ? configPatch(pub?.config ?? null, wf.config, pub ? `published (version ${pub.version})` : 'published (none)') : '';
      return { id: wf.id, name: wf.name, status: syncStatus(wf, pub), changes, patch };
    },

    /** Deletes the draft; `unpublish` also removes the published copy (its webhook then answers 404). */
    async delete(ref: string, options: { unpublish?: boolean } = {}) {
      const wf = await draftRecords.find(ref);
      const pub = wf ? null : await publishedRecords.find(ref);
      if (!wf && !(pub && options.unpublish)) await requireLocal(ref);
      const id = (wf ?? pub)!.id;
      if (wf) {
        await local.removeItem(id);
        await draftRecords.unindex(wf.name);
      }
      if (options.unpublish) {
        await cloud.removeItem(id);
        await publishedRecords.unindex((wf ?? pub)!.name);
        await tokens.removeItem(sha256((wf ?? pub)!.webhookToken));
        await versions.forget(id);
      }
      bus.emit('workflow:deleted', { id, unpublished: !!options.unpublish });
      return { id, deleted: true, unpublished: !!options.unpublish };
    },

    /** The published copy by id or name, or null. */
    findPublished: publishedRecords.find,
    /** Every published workflow. */
    listPublished: () => publishedRecords.all(),
    /** The workflow id a webhook token belongs to (looked up by the token's hash), or null. */
    async idForToken(token: string): Promise<string | null> {
      if (!/^[\w-]{16,128}$/.test(token)) return null;
      return (await tokens.getItem<{ id: string }>(sha256(token)))?.id ?? null;
    },
  };
  return api;
}
