import { useMemo, useState, type KeyboardEvent } from 'react';
import { api, seg } from '../api.js';
import { FlowGraph, toGraph, typesByName } from '../graph/FlowGraph.js';
import { href } from '../route.js';
import type { NodeTypeInfo, WorkflowConfig } from '../types.js';
import { useLoad } from '../ui/hooks.js';
import { duration, ErrorNote, Status, when } from '../ui/parts.js';
import { ExecutionActions } from './Actions.js';
import { ApprovalNote } from './ApprovalNote.js';
import { Lineage } from './Lineage.js';
import { NodePanel } from './NodePanel.js';
import { QueuedNote } from './QueuedNote.js';
import { configFor, configOfRecord, overlaysOf, spanMs, type Inspected } from './record.js';
import { RunSummary } from './RunSummary.js';
import { useExecution } from './useExecution.js';

/** What the Studio reads of `GET /workflows/:id` to draw an execution: the draft and the published copy. */
export interface Details {
  config: WorkflowConfig;
  published: { config: WorkflowConfig; version: number } | null;
}

/**
 * One execution drawn on the graph of the flow version it ran: each node with its status, duration and
 * attempts, live while it runs; a node clicked (or Enter on it) opens its data, logs and error beside the graph.
 */
export function ExecutionView({ id, onOpen }: { id: string; onOpen(record: Inspected): void }) {
  const live = useExecution(id);
  const [selected, setSelected] = useState<string>();
  const record = live.record;
  const workflowId = record?.workflowId;
  const details = useLoad((signal) => (workflowId ? api.get<Details>(`/workflows/${seg(workflowId)}`, signal) : Promise.resolve(undefined)), [workflowId]);
  const types = useLoad((signal) => api.get<NodeTypeInfo[]>('/node-types', signal), []);
  const drawn = useMemo(() => {
    if (!record) return undefined;
    if (details.value) return configFor(details.value, record);
    if (details.error) return { config: configOfRecord(record), note: `the flow is gone (${details.error.message}); its nodes as the record holds them` };
    return undefined;
  }, [record, details.value, details.error]);
  const overlays = useMemo(() => (record ? overlaysOf(record, drawn?.config) : {}), [record, drawn]);
  const graph = useMemo(() => {
    if (!drawn) return undefined;
    const g = toGraph(drawn.config, typesByName(types.value), overlays);
    return { ...g, nodes: g.nodes.map((n) => (n.id === selected ? { ...n, selected: true } : n)) };
  }, [drawn, types.value, overlays, selected]);

  if (!record) return <div className="exec-view">{live.error ? <ErrorNote error={live.error} title="Could not load the execution" /> : <p className="muted">Loading…</p>}</div>;
  // Enter on a focused node opens it, as a click does.
  const onKey = (e: KeyboardEvent) => {
    const node = (e.target as HTMLElement).closest<HTMLElement>('.react-flow__node');
    if (e.key === 'Enter' && node?.dataset.id) setSelected(node.dataset.id);
    if (e.key === 'Escape') setSelected(undefined);
  };
  return (
    <div className="exec-view" aria-label={`Execution ${record.id}`}>
      <header className="exec-head">
        <Status value={record.status} />
        <h2>
          <code>{record.id}</code>
        </h2>
        <a href={href(['flows', record.workflowId, 'editor'])}>{record.workflowName}</a>
        <span className="muted">
          {record.trigger} · {record.draft ? 'draft' : `version ${record.version ?? '—'}`} · started {when(record.startedAt)} · took {duration(spanMs(record.startedAt, record.finishedAt))}
          {record.attempts && record.attempts > 1 ? ` · ${record.attempts} attempts` : ''}
        </span>
        <ExecutionActions record={record} onChanged={live.set} onOpen={onOpen} />
      </header>
      <Lineage record={record} />
      <QueuedNote record={record} settings={drawn?.config.settings} />
      <ApprovalNote record={record} onDecided={live.reload} />
      {record.error && (
        <div className="error-note exec-error" role="alert" aria-label="Execution error">
          <strong>
            {record.status === 'cancelled' ? 'Cancelled' : 'Failed'}
            {record.error.node ? ` at ${record.error.node}` : ''}
          </strong> <code>{record.error.code}</code> {record.error.message}
        </div>
      )}
      {drawn?.note && <p className="muted">{drawn.note}</p>}
      <div className="exec-body">
        <div className="canvas" onKeyDown={onKey}>
          {graph && <FlowGraph key={record.id} nodes={graph.nodes} edges={graph.edges} onNodeClick={(_, n) => setSelected(n.id)} onPaneClick={() => setSelected(undefined)} />}
        </div>
        {selected ? (
          <NodePanel record={record} config={drawn?.config} nodeId={selected} onClose={() => setSelected(undefined)} />
        ) : (
          <RunSummary record={record} config={drawn?.config} overlays={overlays} onSelect={setSelected} />
        )}
      </div>
    </div>
  );
}
