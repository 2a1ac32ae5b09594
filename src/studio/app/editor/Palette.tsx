import { useMemo, useState, type DragEvent } from 'react';
import type { NodeTypeInfo } from '../types.js';

/** The drag data type a palette item carries onto the canvas (its value: the node type). */
export const NODE_TYPE_DRAG = 'application/x-weir-node-type';

/** A type's documentation as text: the registry's docs object (`summary`, `output`) or markdown. */
function docsLines(info: NodeTypeInfo): string[] {
  const docs = info.docs as { output?: unknown } | string | null | undefined;
  if (typeof docs === 'string') return [docs];
  return typeof docs?.output === 'string' ? [`Output: ${docs.output}`] : [];
}

/** The group a type is listed under: its category, else triggers apart from the rest. */
const groupOf = (t: NodeTypeInfo) => t.category ?? (t.trigger ? 'Triggers' : 'Nodes');

/**
 * The registered node types, searchable and grouped by category, each with its description and docs. A click (or
 * Enter) adds one to the flow; dragging one onto the canvas adds it where it is dropped.
 */
export function Palette({ types, onAdd }: { types: NodeTypeInfo[]; onAdd(type: string): void }) {
  const [query, setQuery] = useState('');
  const groups = useMemo(() => {
    const q = query.trim().toLowerCase();
    const hits = types.filter((t) => !q || [t.type, t.title, t.description, t.category].some((s) => s?.toLowerCase().includes(q)));
    const byGroup = new Map<string, NodeTypeInfo[]>();
    for (const t of hits) byGroup.set(groupOf(t), [...(byGroup.get(groupOf(t)) ?? []), t]);
    return [...byGroup];
  }, [types, query]);
  const onDragStart = (e: DragEvent, type: string) => {
    e.dataTransfer.setData(NODE_TYPE_DRAG, type);
    e.dataTransfer.effectAllowed = 'copy';
  };
  return (
    <aside className="palette" aria-label="Node types">
      <input type="search" placeholder="Search node types" aria-label="Search node types" value={query} onChange={(e) => setQuery(e.target.value)} />
      <div className="palette-groups">
        {groups.map(([group, list]) => (
          <section key={group} aria-label={group}>
            <h3>{group}</h3>
            {list.map((t) => (
              <button key={t.type} className="palette-item" draggable onDragStart={(e) => onDragStart(e, t.type)} onClick={() => onAdd(t.type)} aria-label={`Add ${t.title ?? t.type}`} title={docsLines(t).join('\n') || undefined}>
                <span className="palette-title">{t.title ?? t.type}</span> <code className="muted">{t.type}</code>
                {t.description && <span className="palette-desc">{t.description}</span>}
                {docsLines(t).map((l) => (
                  <span key={l} className="palette-docs">
                    {l}
                  </span>
                ))}
              </button>
            ))}
          </section>
        ))}
        {!groups.length && <p className="empty">No node type matches "{query}".</p>}
      </div>
    </aside>
  );
}
