/** What `deploy` did: the commit pushed, whether the state had changed since the last one, how many files. */
export interface ProjectDeploy {
  id: string;
  remote: string;
  branch: string;
  commit: string;
  committed: boolean;
  files: number;
  pushedAt: string;
}

/** The configured remote, the last push and whether the state differs from it. */
export interface ProjectStatus {
  id: string;
  remote: string | null;
  branch: string | null;
  lastPush: { at: string; commit: string; files: number } | null;
  changed: boolean;
}

/**
 * The state of a home kept in a git repository (`weir.projects`): workflows, interface sources, custom
 * agents, table schemas and KV namespaces written as files, committed and force-pushed.
 * @example
 * const r = await weir.projects.deploy()     // { commit, remote, branch, committed, files }
 * const s = await weir.projects.status()     // { remote, lastPush, changed }
 */
export interface Projects {
  /** Writes the state into the working repository, commits when it changed, and force-pushes. */
  deploy(ref?: string): Promise<ProjectDeploy>;
  /** Remote, last push, and whether the state differs from what was pushed. */
  status(ref?: string): Promise<ProjectStatus>;
}
