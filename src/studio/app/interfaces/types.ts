// The interface answers of the management API the page reads (GET /api/v1/openapi.json is their source).

/** `GET /interfaces`: one interface as `weir interface list --json` shows it, with its running preview's URL. */
export interface InterfaceInfo {
  id: string;
  name: string;
  type: 'external' | 'internal';
  description?: string;
  /** Its source folder on the host's machine. */
  dir?: string;
  createdAt: string;
  updatedAt: string;
  /** Its newest deploy; null before the first. */
  deployed: { version: number; at: string; files: number; bytes: number } | null;
  previewUrl: string | null;
}

/** `POST /interfaces/:id/preview`: the running preview; `started` is false when it already ran. */
export interface Preview {
  id: string;
  name: string;
  url: string;
  started: boolean;
}

/** `GET /interfaces/:id/logs`: the last lines, oldest first, and whether the preview runs now. */
export interface PreviewLogs {
  lines: string[];
  running: boolean;
}
