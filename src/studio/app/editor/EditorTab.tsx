import { useReactFlow } from '@xyflow/react';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { api, seg, type ApiError } from '../api.js';
import { typesByName } from '../graph/FlowGraph.js';
import { NODE_HEIGHT, NODE_WIDTH, positions } from '../graph/layout.js';
import { parseRoute } from '../route.js';
import { overlaysOf } from '../executions/record.js';
import type { Draft, ExecutionPage, ExecutionRecord, NodeTypeInfo, WorkflowConfig, WorkflowSummary } from '../types.js';
import { asApiError, useLatest, useLoad } from '../ui/hooks.js';
import { ErrorNote, Modal } from '../ui/parts.js';
import { completionsFor } from './completions.js';
import { DiffView } from './DiffView.js';
import { EditorCanvas, type Selection } from './EditorCanvas.js';
import { addNode, removeElements, updateNode, withPositions, type XY } from './flowEdit.js';
import { record, redo, startHistory, undo, type History } from './history.js';
import { useLeaveGuard } from './leaveGuard.js';
import { NodePanel } from './NodePanel.js';
import { Palette } from './Palette.js';
import { SettingsPanel } from './SettingsPanel.js';
import type { JsonSchema } from './schema.js';
import { placeProblems, useValidation } from './problems.js';
import { Toolbar } from './Toolbar.js';

interface WorkflowDetails {
  webhookFormat?: { variables?: string[] } | null;
}

/** The flow's draft in the visual editor, once the draft, the node types and the accepted webhook format are loaded. */
export function EditorTab({ flow, onSaved }: { flow: WorkflowSummary; onSaved(): void }) {
  const draft = useLoad((signal) => api.get<Draft>(`/workflows/${seg(flow.id)}/draft`, signal), [flow.id]);
  const types = useLoad((signal) => api.get<NodeTypeInfo[]>('/node-types', signal), []);
  const flowSchema = useLoad((signal) => api.get<{ properties?: { settings?: JsonSchema } }>('/workflow-schema', signal), []);
  const details = useLoad((signal) => api.get<WorkflowDetails>(`/workflows/${seg(flow.id)}`, signal), [flow.id]);
  // The newest execution, drawn on the nodes it reached (values cut small: only statuses and times are shown).
  const last = useLoad((signal) => api.get<ExecutionPage>(`/executions?workflow=${seg(flow.id)}&limit=1&maxValueBytes=256`, signal), [flow.id]);
  return (
    <div className="editor-wrap">
      <ErrorNote error={draft.error} title="Could not load the draft" />
      <ErrorNote error={types.error} title="Could not load the node types" />
      {draft.value && types.value ? (
        <Editor key={flow.id} flow={flow} draft={draft.value} types={types.value} webhookVariables={details.value?.webhookFormat?.variables} lastRun={last.value?.items[0]} settingsSchema={flowSchema.value?.properties?.settings} onSaved={onSaved} />
      ) : (
        !draft.error && !types.error && <p className="muted">Loading the draft…</p>
      )}
    </div>
  );
}

const NO_SELECTION: Selection = { nodes: [], edges: [] };
const LEAVE_QUESTION = 'This flow has unsaved changes. Leave without saving them?';

interface EditorProps {
  flow: WorkflowSummary;
  draft: Draft;
  types: NodeTypeInfo[];
  webhookVariables?: string[];
  /** The flow's newest execution, if any. */
  lastRun?: ExecutionRecord;
  /** The schema of the flow's `settings` (none while it loads). */
  settingsSchema?: JsonSchema;
  onSaved(): void;
}

function Editor({ flow, draft, types, webhookVariables, lastRun, settingsSchema, onSaved }: EditorProps) {
  const typeMap = useMemo(() => typesByName(types), [types]);
  const runOverlays = useMemo(() => (lastRun ? overlaysOf(lastRun) : undefined), [lastRun]);
  const triggerTypes = useMemo(() => new Set(types.filter((t) => t.trigger).map((t) => t.type)), [types]);
  // Every node gets a place at once (the layout's, for nodes never moved), so the draft saved keeps the picture seen.
  const [initial] = useState(() => withPositions(draft.config, positions(draft.config)));
  const [history, setHistory] = useState<History>(() => startHistory(initial));
  const [saved, setSaved] = useState<WorkflowConfig>(initial);
  const config = history.present;
  const latest = useLatest(config);
  const dirty = config !== saved;

  const edit = useCallback((next: WorkflowConfig, key?: string) => setHistory((h) => record(h, next, key)), []);
  const [selection, setSelection] = useState<Selection>(NO_SELECTION);
  const [select, setSelect] = useState<{ id: string; seq: number }>();

  const { validation, error: checkError } = useValidation(config);
  const placed = useMemo(() => (validation ? placeProblems(validation.config, validation.problems) : null), [validation]);
  const nodeMessages = useMemo(() => new Map([...(placed?.byNode ?? [])].map(([id, ps]) => [id, ps.map((p) => p.message)])), [placed]);

  // Adding: where it was dropped, else the middle of the view (moved down past the nodes already there).
  const flowView = useReactFlow();
  const canvasBox = useRef<HTMLDivElement>(null);
  const add = useCallback(
    (type: string, at?: XY) => {
      const example = typeMap.get(type)?.example;
      const nodeConfig = example && typeof example === 'object' && !Array.isArray(example) ? structuredClone(example as Record<string, unknown>) : {};
      const current = latest.current;
      let place = at;
      if (!place) {
        const box = canvasBox.current!.getBoundingClientRect();
        const mid = flowView.screenToFlowPosition({ x: box.left + box.width / 2, y: box.top + box.height / 2 });
        place = { x: mid.x - NODE_WIDTH / 2, y: mid.y - NODE_HEIGHT / 2 };
        const taken = (p: XY) => current.nodes.some((n) => n.position && Math.abs(n.position.x - p.x) < NODE_WIDTH && Math.abs(n.position.y - p.y) < NODE_HEIGHT + 10);
        for (let i = 0; i < 40 && taken(place); i++) place = { x: place.x, y: place.y + NODE_HEIGHT + 20 };
      }
      const { config: next, id } = addNode(current, type, nodeConfig, place);
      edit(next);
      setSelect({ id, seq: Date.now() });
    },
    [typeMap, latest, flowView, edit],
  );

  const deleteSelection = useCallback(() => edit(removeElements(latest.current, new Set(selection.nodes), new Set(selection.edges))), [edit, latest, selection]);

  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<{ title: string; error: ApiError }>();
  const [note, setNote] = useState<string>();
  const save = useCallback(async (): Promise<boolean> => {
    const sending = latest.current;
    setSaving(true);
    setFailure(undefined);
    try {
      await api.put(`/workflows/${seg(flow.id)}/draft`, sending);
      setSaved(sending);
      setNote(`Saved at ${new Date().toLocaleTimeString()}`);
      onSaved();
      return true;
    } catch (err) {
      setFailure({ title: 'Could not save the draft', error: asApiError(err) });
      return false;
    } finally {
      setSaving(false);
    }
  }, [flow.id, latest, onSaved]);

  const [conflict, setConflict] = useState<string>();
  const publish = useCallback(
    async (force = false) => {
      setConflict(undefined);
      if (latest.current !== saved && !(await save())) return;
      try {
        // Asked first rather than learnt from a refused publish: the page then shows the choice without a failed request.
        const now = await api.get<WorkflowSummary>(`/workflows/${seg(flow.id)}`);
        if (now.status === 'conflict' && !force) {
          setConflict(`The published copy is at version ${now.publishedVersion}, and this draft is based on version ${now.localVersion}: someone published since.`);
          return;
        }
        const done = await api.post<{ version: number }>(`/workflows/${seg(flow.id)}/publish`, force ? { force: true } : {});
        setNote(`Published version ${done.version}`);
        setFailure(undefined);
        onSaved();
      } catch (err) {
        const e = asApiError(err);
        if (e.status === 409) setConflict(e.message);
        else setFailure({ title: 'Could not publish', error: e });
      }
    },
    [flow.id, latest, saved, save, onSaved],
  );

  const [showDiff, setShowDiff] = useState(false);
  const doUndo = useCallback(() => setHistory(undo), []);
  const doRedo = useCallback(() => setHistory(redo), []);

  // Shortcuts anywhere in the editor: save, undo, redo (in its fields too: an undo takes back the field's edit).
  const actions = useLatest({ save, doUndo, doRedo });
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const key = e.key.toLowerCase();
      if (key === 's') void actions.current.save();
      else if (key === 'z' && !e.shiftKey) actions.current.doUndo();
      else if ((key === 'z' && e.shiftKey) || key === 'y') actions.current.doRedo();
      else return;
      e.preventDefault();
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [actions]);

  const stays = useCallback((url: string) => {
    const { view, parts } = parseRoute(new URL(url).hash);
    return view === 'flows' && parts[0] === flow.id && (parts[1] ?? 'editor') === 'editor';
  }, [flow.id]);
  useLeaveGuard(dirty, stays, LEAVE_QUESTION);

  const selectedNode = selection.nodes.length === 1 ? config.nodes.find((n) => n.id === selection.nodes[0]) : undefined;
  const completions = useMemo(() => (selectedNode ? completionsFor(config, selectedNode.id, { webhookVariables, triggerTypes }) : []), [config, selectedNode, webhookVariables, triggerTypes]);
  const problemCount = validation ? validation.problems.length : null;

  return (
    <>
      <Toolbar
        dirty={dirty}
        saving={saving}
        problemCount={problemCount}
        checkError={checkError}
        canUndo={history.past.length > 0}
        canRedo={history.future.length > 0}
        canDelete={selection.nodes.length + selection.edges.length > 0}
        note={note}
        onUndo={doUndo}
        onRedo={doRedo}
        onDelete={deleteSelection}
        onSave={() => void save()}
        onDiff={() => setShowDiff(true)}
        onPublish={() => void publish()}
      />
      {failure && <ErrorNote error={failure.error} title={failure.title} />}
      {placed && placed.flow.length > 0 && (
        <ul className="flow-problems" aria-label="Flow problems">
          {placed.flow.map((p) => (
            <li key={p.path + p.message}>⚠ {p.message}</li>
          ))}
        </ul>
      )}
      <div className="editor-body">
        <Palette types={types} onAdd={add} />
        <div className="canvas-box" ref={canvasBox}>
          <EditorCanvas config={config} types={typeMap} problems={nodeMessages} lastRun={runOverlays} handles={validation?.handles} select={select} onEdit={edit} onAdd={add} onSelection={setSelection} />
          {config.nodes.length === 0 && <p className="canvas-hint">Empty flow: add a trigger from the palette (click it, or drag it here).</p>}
        </div>
        {selectedNode ? (
          <NodePanel
            key={selectedNode.id}
            node={selectedNode}
            info={typeMap.get(selectedNode.type)}
            problems={placed?.byNode.get(selectedNode.id)}
            completions={completions}
            onConfig={(c, key) => edit(updateNode(latest.current, selectedNode.id, { config: c }), `${selectedNode.id}:${key}`)}
            onLabel={(label) => edit(updateNode(latest.current, selectedNode.id, { label }), `${selectedNode.id}:label`)}
            onDelete={() => edit(removeElements(latest.current, new Set([selectedNode.id]), new Set()))}
          />
        ) : (
          <aside className="node-panel node-panel-empty" aria-label="Node">
            <p className="muted">Select a node to edit its config. Drag from a node's right handle to another node to connect them; drag an edge's end away to disconnect it.</p>
            <p className="muted">Shortcuts: Ctrl/⌘+S save, Ctrl/⌘+Z undo, Ctrl/⌘+Shift+Z redo, Delete removes the selection.</p>
            <SettingsPanel
              config={config}
              schema={settingsSchema}
              problems={placed?.flow ?? []}
              onChange={(settings, key) => edit({ ...latest.current, settings }, key)}
            />
          </aside>
        )}
      </div>
      {showDiff && <DiffView flowId={flow.id} publishedVersion={flow.publishedVersion} unsaved={dirty} onClose={() => setShowDiff(false)} />}
      {conflict && (
        <Modal title="Publish conflict" onClose={() => setConflict(undefined)}>
          <p>{conflict}</p>
          <p className="muted">Publishing anyway replaces the newer published version with this draft.</p>
          <div className="modal-actions">
            <button onClick={() => setConflict(undefined)}>Cancel</button>
            <button className="primary danger-bg" onClick={() => void publish(true)}>
              Publish anyway
            </button>
          </div>
        </Modal>
      )}
    </>
  );
}
