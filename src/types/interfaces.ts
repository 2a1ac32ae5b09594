import type { InterfaceFolder } from '../resources/interfaces/local.js';
import type { FileMap, InterfaceLogEntry, InterfaceRecord, InterfaceType } from '../resources/interfaces/types.js';

/**
 * Interfaces (`weir.interfaces`): web apps built from a source folder and served by the host under
 * `/i/<name>/`, with their deploys and request logs.
 * @example
 * const folder = await weir.interfaces.folder('shop', process.cwd())
 * await weir.interfaces.deploy(folder) // { name: 'shop', version: 1, path: '/i/shop/', ... }
 */
export interface Interfaces {
  find(ref: string): Promise<InterfaceRecord | null>;
  get(ref: string): Promise<InterfaceRecord>;
  /** Every interface, by name. */
  list(): Promise<InterfaceRecord[]>;
  /** Records a new interface (names are unique); `dir` is its source folder. */
  create: (fields: {
    name: string;
    type?: string;
    description?: string;
    dir?: string;
  }) => Promise<InterfaceRecord>;
  /** Removes the record, its build, sources and logs (the source folder stays). */
  remove(ref: string): Promise<{
    id: string;
    name: string;
    deleted: boolean;
  }>;
  /**
   * The interface folder a command acts on: with `ref`, `cwd` itself, `./<name>` under it, or the folder it
   * was created in; without, the folder `cwd` is in (it or a parent holds `weir.interface.json`).
   */
  folder(ref: string | undefined, cwd: string): Promise<InterfaceFolder>;
  /** Builds a folder and stores the build and its sources as the new deployed version. */
  deploy(folder: InterfaceFolder): Promise<{
    id: string;
    name: string;
    type: InterfaceType;
    version: number;
    files: string[];
    bytes: number;
    path: string;
  }>;
  /** The deployed build of an interface (by id or name), or null before the first deploy. */
  served(ref: string): Promise<{
    record: InterfaceRecord;
    files: FileMap;
  } | null>;
  /** The sources stored with the newest deploy, or null. */
  deployedSources(id: string): Promise<FileMap | null>;
  /** Appends a line to an interface's log (deploys and requests). */
  log(id: string, kind: InterfaceLogEntry["kind"], message: string): Promise<void>;
  /** The newest `limit` log lines of an interface, oldest first. */
  logs(ref: string, limit?: number): Promise<InterfaceLogEntry[]>;
  /**
   * The host's access token for internal interfaces (created on first use, kept in the cloud mount so every
   * host of the organization agrees). Requests send it as `Authorization: Bearer <token>` or `?token=`.
   */
  accessToken(): Promise<string>;
}
