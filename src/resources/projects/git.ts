import { execFile } from 'node:child_process';
import { isAbsolute, resolve } from 'node:path';
import { WeirError } from '../../errors.js';

/** weir commits as itself, so no global git identity or signing setup is needed. */
const IDENTITY = ['-c', 'user.name=weir', '-c', 'user.email=weir@localhost', '-c', 'commit.gpgsign=false', '-c', 'core.autocrlf=false'];

/** Hides credentials a user may have written into a URL (`https://user:pass@host`). */
export const redact = (text: string) => text.replace(/(\w+:\/\/)[^/@\s]+@/g, '$1***@');

export interface GitOptions {
  cwd: string;
  /** Extra git configuration passed through the environment (kept out of argv and of `.git/config`). */
  config?: Record<string, string>;
}

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs the system git; never prompts (no terminal). Resolves with the exit code instead of throwing.
 * @example
 * const { stdout } = await git(['rev-parse', 'HEAD'], { cwd: repo })
 */
export function git(args: string[], options: GitOptions): Promise<GitResult> {
  const entries = Object.entries(options.config ?? {});
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_TERMINAL_PROMPT: '0', GIT_CONFIG_COUNT: String(entries.length) };
  entries.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  return new Promise((done, fail) => {
    execFile('git', [...IDENTITY, ...args], { cwd: options.cwd, env, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && (err as NodeJS.ErrnoException).code === 'ENOENT') {
        return fail(new WeirError('UNAVAILABLE', 'git is not installed', { hints: ['install git (Debian/Ubuntu: `sudo apt-get install git`)'] }));
      }
      done({ code: err ? Number((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** Like {@link git}, but a non-zero exit is a PROVIDER error carrying git's message. */
export async function gitOk(args: string[], options: GitOptions): Promise<string> {
  const r = await git(args, options);
  if (r.code !== 0) {
    const message = redact((r.stderr || r.stdout).trim().split('\n').slice(-3).join(' / '));
    throw new WeirError('PROVIDER', `git ${args[0]} failed: ${message}`);
  }
  return r.stdout.trim();
}

/** A remote as git takes it: URLs and `user@host:path` as they are, a relative path from the home. */
export function resolveRemote(remote: string, home: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/\\]+@[^/\\]+:/.test(remote) || isAbsolute(remote)) return remote;
  return resolve(home, remote);
}

/** The git configuration that sends a token on HTTPS remotes (Basic auth, as GitHub, GitLab and Gitea take it). */
export function tokenConfig(remote: string, token: string | undefined, username = 'x-access-token'): Record<string, string> {
  if (!token || !/^https?:\/\//i.test(remote)) return {};
  return { 'http.extraHeader': `Authorization: Basic ${Buffer.from(`${username}:${token}`).toString('base64')}` };
}

/**
 * The branch a remote's HEAD names (its default branch), or null when it does not say (an empty remote over
 * the network). An empty repository on a local path is asked directly.
 */
export async function remoteDefaultBranch(url: string, options: GitOptions): Promise<string | null> {
  const listed = await git(['ls-remote', '--symref', url, 'HEAD'], options);
  const named = /^ref: refs\/heads\/(\S+)\s+HEAD$/m.exec(listed.stdout)?.[1];
  if (named) return named;
  if (!isAbsolute(url)) return null;
  const local = await git(['-C', url, 'symbolic-ref', '--short', 'HEAD'], options);
  return local.code === 0 && local.stdout.trim() ? local.stdout.trim() : null;
}
