/** Who may open a deployed interface: anyone (`external`) or holders of the host's access token (`internal`). */
export type InterfaceType = 'external' | 'internal';

export const INTERFACE_TYPES: readonly InterfaceType[] = ['external', 'internal'];

/** The marker file of an interface folder (`weir.interface.json`). */
export interface InterfaceManifest {
  id: string;
  name: string;
  type: InterfaceType;
  description?: string;
}

/** An interface as recorded in the `cloud` mount. */
export interface InterfaceRecord extends InterfaceManifest {
  /** The folder it was created in (on the machine that ran `init`); previews and projects read sources here. */
  dir?: string;
  createdAt: string;
  updatedAt: string;
  /** The newest deployed build, or null before the first deploy. */
  deployed: { version: number; at: string; files: number; bytes: number } | null;
}

/** One file of a build or of the sources, ready to serve or to write. */
export interface InterfaceFile {
  contentType: string;
  data: Buffer;
}

/** Files by path relative to the interface root, `/`-separated (`index.html`, `assets/logo.svg`). */
export type FileMap = Map<string, InterfaceFile>;

/** One line of an interface's log. */
export interface InterfaceLogEntry {
  time: string;
  kind: 'deploy' | 'request';
  message: string;
}
