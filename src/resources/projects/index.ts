import { existsSync } from 'node:fs';
import { mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { WeirError } from '../../errors.js';
import type { WeirConfig } from '../../config.js';
import type { KeyValueStorage, Storages } from '../../storage/index.js';
import type { Secrets } from '../secrets/index.js';
import type { Projects } from '../../types/projects.js';
import { git, gitOk, remoteDefaultBranch, resolveRemote, tokenConfig } from './git.js';
import { checkPath, projectFiles, snapshotHash, type ProjectFiles, type ProjectSources } from './snapshot.js';

export { projectFiles, snapshotHash, type ProjectSources } from './snapshot.js';
export type { ProjectDeploy, Projects, ProjectStatus } from '../../types/projects.js';

/** What the cloud mount remembers of the last push (`projects:<id>`). */
export interface ProjectState {
  id: string;
  remote: string;
  branch: string;
  lastPush: { at: string; commit: string; hash: string; files: number } | null;
}

/** What projects read: the managers whose state they hold, the configuration, secrets (a git token). */
export interface ProjectsOptions {
  sources: ProjectSources;
  storage: Storages;
  config: WeirConfig;
  home?: string;
  secrets: Secrets;
  env: Record<string, string | undefined>;
}

const DEFAULT_ID = 'default';

/**
 * Projects: the whole state of a home written as files into a git repository under the home
 * (`<home>/project/<id>`), committed and force-pushed to `weir.config.json` `project.remote` on
 * `project.branch`, else the remote's default branch, else `main`.
 * @example
 * const r = await weir.projects.deploy()     // { commit, remote, branch, committed, files }
 * const s = await weir.projects.status()     // { remote, lastPush, changed }
 */
export function createProjects({ sources, storage, config, home, secrets, env }: ProjectsOptions): Projects {
  const store: KeyValueStorage = storage.view('cloud', 'projects');

  /** The project of this home: `project.id` in weir.config.json, else "default". */
  function project(ref?: string) {
    const settings = config.project ?? {};
    const id = typeof settings.id === 'string' && settings.id ? settings.id : DEFAULT_ID;
    if (ref && ref !== id) throw new WeirError('NOT_FOUND', `project "${ref}" not found: this home holds project "${id}"`);
    return { id, remote: settings.remote, branch: settings.branch, username: settings.username };
  }

  function requireRemote(remote: string | undefined): string {
    if (remote) return remote;
    throw new WeirError('INVALID_CONFIG', 'no project remote is configured', {
      hints: [`add {"project": {"remote": "<git URL or path>"}} to ${home ? join(home, 'weir.config.json') : 'weir.config.json'}`],
    });
  }

  /** Replaces the repository's working tree (everything but .git) with the snapshot. */
  async function writeTree(repo: string, files: ProjectFiles): Promise<void> {
    for (const entry of await readdir(repo)) if (entry !== '.git') await rm(join(repo, entry), { recursive: true, force: true });
    for (const [path, data] of files) {
      checkPath(path);
      await mkdir(dirname(join(repo, path)), { recursive: true });
      await writeFile(join(repo, path), data);
    }
  }

  /** A secret by name, else the environment's value (a token may come from either). */
  async function secret(name: string): Promise<string | undefined> {
    const stored = await secrets.get(name).catch(() => undefined);
    return stored ?? env[name];
  }

  return {
    async deploy(ref?: string) {
      const p = project(ref);
      const remote = requireRemote(p.remote);
      if (!home) throw new WeirError('INVALID_CONFIG', 'projects need a home directory (the git repository lives there)');
      const url = resolveRemote(remote, home);
      const token = /^https?:\/\//i.test(url) ? await secret('GIT_TOKEN') : undefined;
      const auth = { config: tokenConfig(url, token, p.username) };
      const repo = join(home, 'project', p.id);
      await mkdir(repo, { recursive: true });
      const opts = { cwd: repo, ...auth };
      const branch = p.branch || (await remoteDefaultBranch(url, opts)) || 'main';
      if (!existsSync(join(repo, '.git'))) await gitOk(['init', '-q', '-b', branch], opts);
      // Build on the remote's history when it has some, so nothing already there is orphaned.
      const fetched = await git(['fetch', '-q', '--no-tags', url, branch], opts);
      if (fetched.code === 0) await gitOk(['reset', '-q', '--soft', 'FETCH_HEAD'], opts);
      const files = await projectFiles(sources, p.id);
      await writeTree(repo, files);
      await gitOk(['add', '-A'], opts);
      const hasHead = (await git(['rev-parse', '-q', '--verify', 'HEAD'], opts)).code === 0;
      const changed = !hasHead || (await git(['diff', '--cached', '--quiet'], opts)).code !== 0;
      const at = new Date().toISOString();
      if (changed) await gitOk(['commit', '-q', '-m', `weir project deploy ${at}`], opts);
      const commit = await gitOk(['rev-parse', 'HEAD'], opts);
      await gitOk(['push', '-q', '--force', url, `HEAD:refs/heads/${branch}`], opts);
      const state: ProjectState = { id: p.id, remote, branch, lastPush: { at, commit, hash: snapshotHash(files), files: files.size } };
      await store.setItem(p.id, state);
      return { id: p.id, remote, branch, commit, committed: changed, files: files.size, pushedAt: at };
    },

    async status(ref?: string) {
      const p = project(ref);
      const state = await store.getItem<ProjectState>(p.id);
      const lastPush = state?.lastPush ?? null;
      const changed = !lastPush || snapshotHash(await projectFiles(sources, p.id)) !== lastPush.hash;
      return { id: p.id, remote: p.remote ?? null, branch: p.branch ?? state?.branch ?? null, lastPush: lastPush && { at: lastPush.at, commit: lastPush.commit, files: lastPush.files }, changed };
    },
  };
}
