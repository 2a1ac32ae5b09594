// What kind of record a storage key or a home file is: `weir doctor` sums them by these names.

/** Keys of the `cloud` mount, by prefix (the first that matches). */
const CLOUD: Array<[string, string]> = [
  ['executions:runs:', 'execution batches'],
  ['executions:open:', 'open executions'],
  ['executions:opened:', 'open markers'],
  ['executions:ids:', 'execution ids'],
  ['executions:configs:', 'execution configs'],
  ['executions:cancel:', 'cancel requests'],
  ['executions:status:', 'status key'],
  ['waits:due:', 'wait wakes'],
  ['waits:token:', 'wait tokens'],
  ['waits:early:', 'early calls'],
  ['waits:ended:', 'ended markers'],
  ['waits:of:', 'wait links'],
  ['waits:new:', 'wait notes'],
  ['workflows:', 'published'],
  ['workflow-names:', 'published'],
  ['webhook-tokens:', 'published'],
  ['workflow-versions:', 'publish claims'],
  ['blobs:objects:', 'objects'],
  ['blobs:knowledge:', 'knowledge'],
];

/** Keys of the `local` mount: workflow drafts. */
const LOCAL: Array<[string, string]> = [
  ['workflows:', 'workflows'],
  ['workflow-names:', 'workflows'],
];

/** Files of the home outside the mounts, by path. */
const HOME: Array<[RegExp, string]> = [
  [/^journal\//, 'journal'],
  [/^run\/serve\.json$/, 'host record'],
  [/^tables\.sqlite/, 'tables file'],
  [/^weir\.config\.json$/, 'config'],
  [/^devservers\//, 'dev servers'],
];

const firstSegment = (name: string, separator: string) => name.split(separator)[0];

/** The kind of a `cloud` key: a known prefix's, else its first segment (`kv`, `secrets`, `agents`…). */
export const cloudKind = (key: string): string => CLOUD.find(([prefix]) => key.startsWith(prefix))?.[1] ?? firstSegment(key, ':');

/** The kind of a `local` key. */
export const localKind = (key: string): string => LOCAL.find(([prefix]) => key.startsWith(prefix))?.[1] ?? `local ${firstSegment(key, ':')}`;

/** The kind of a file of the home outside the mounts (`run/wait-claims/…` is `wait claims`). */
export function homeKind(path: string): string {
  const claims = /^run\/([^/]+)-claims\//.exec(path);
  if (claims) return `${claims[1]} claims`;
  return HOME.find(([pattern]) => pattern.test(path))?.[1] ?? firstSegment(path, '/');
}
