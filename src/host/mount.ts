import { WeirError } from '../errors.js';

/** Where an embedding app mounts weir; shared by the transport adapters. */
export interface MountOptions {
  /**
   * A path prefix (e.g. `/weir`): weir owns only paths under it and routes them without it
   * (`/weir/trigger/abc` -> `/trigger/abc`); every other path is the app's. Default: none (the root).
   */
  prefix?: string;
}

/** A normalised prefix: `base` is `''` at the root or `/weir`; `strip` gives the path weir routes, or null. */
export interface Mount {
  base: string;
  strip(path: string): string | null;
}

/**
 * Normalises a mount prefix (`weir/`, `/weir`, `/weir/` are one prefix; `/` or `''` is the root). A prefix
 * with a query, a fragment or an empty segment is an INVALID_CONFIG error.
 * @example
 * const mount = createMount('/weir')
 * mount.strip('/weir/trigger/abc') // '/trigger/abc'
 * mount.strip('/healthz') // null: the app's own route
 */
export function createMount(prefix = ''): Mount {
  const trimmed = prefix.replace(/^\/+|\/+$/g, '');
  if (/[?#]|\/\//.test(trimmed)) throw new WeirError('INVALID_CONFIG', `invalid mount prefix "${prefix}": use a plain path such as "/weir"`);
  if (!trimmed) return { base: '', strip: (path) => path };
  const base = `/${trimmed}`;
  return {
    base,
    strip(path) {
      if (!path.startsWith(base)) return null;
      if (path.length === base.length) return '/';
      return path.charCodeAt(base.length) === 47 /* / */ ? path.slice(base.length) : null;
    },
  };
}
