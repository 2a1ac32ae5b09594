// A unified diff (GET /workflows/:id/diff's `patch`) as the rows of a side-by-side view: the published lines on the
// left, the draft's on the right, removed and added lines paired where they replace each other.

export interface DiffSide {
  /** The line number in its file. */
  n: number;
  text: string;
}

export type DiffRow =
  | { kind: 'same' | 'changed' | 'removed' | 'added'; left?: DiffSide; right?: DiffSide }
  /** Unchanged lines the diff leaves out, between two hunks. */
  | { kind: 'gap'; text: string };

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function diffRows(patch: string): DiffRow[] {
  const rows: DiffRow[] = [];
  let left = 0;
  let right = 0;
  let removed: DiffSide[] = [];
  let added: DiffSide[] = [];
  let inHunk = false;
  const flush = () => {
    for (let i = 0; i < Math.max(removed.length, added.length); i++) {
      const l = removed[i];
      const r = added[i];
      rows.push({ kind: l && r ? 'changed' : l ? 'removed' : 'added', left: l, right: r });
    }
    removed = [];
    added = [];
  };
  for (const line of patch.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      flush();
      inHunk = true;
      const from = Number(hunk[1]);
      const skipped = from - 1 - left;
      if (skipped > 0) rows.push({ kind: 'gap', text: `${skipped} unchanged line${skipped === 1 ? '' : 's'}` });
      // A hunk of an empty side starts at 0 (`-0,0`): its next line is line 1.
      left = Math.max(from - 1, 0);
      right = Math.max(Number(hunk[2]) - 1, 0);
      continue;
    }
    // The file names above the first hunk; `\ No newline at end of file` marks.
    if (!inHunk || line.startsWith('\\')) continue;
    if (line.startsWith('-')) removed.push({ n: ++left, text: line.slice(1) });
    else if (line.startsWith('+')) added.push({ n: ++right, text: line.slice(1) });
    else if (line.startsWith(' ')) {
      flush();
      rows.push({ kind: 'same', left: { n: ++left, text: line.slice(1) }, right: { n: ++right, text: line.slice(1) } });
    }
  }
  flush();
  return rows;
}
