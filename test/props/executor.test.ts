// Issue #34, property 5: the graph executor. For generated DAGs of conditions (their branch chosen by the
// input), nodes that pass and nodes that fail (at once or after a turn of the event loop), some with
// `onError: "continue"`, a reference model written here says which nodes run, which are skipped and how the
// execution ends, from CONTRACT section 9: "A node runs once every edge into it from a node that ran has
// delivered; a branch not taken is skipped, and so is what only it leads to"; a node with no incoming edge is
// skipped (docs/flows.md); a failure stops the execution unless the node continues on error, when its data is
// `{error}` and the flow goes on.
import fc from 'fast-check';
import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { defineNode, type FlowEdge, type Weir } from '../../src/index.js';
import { chain, memoryWeir, runConfig } from '../flow/_flows.js';
import { checkAsync } from './_props.js';

const FILE = 'executor';
const TRIGGER = 'manual_trigger-1';

/**
 * `set` passes and `boom` throws, at once; `later` passes and `later_boom` throws after a turn of the loop;
 * `code` and `code_boom` are Code nodes (in the sandbox's workers) that return and throw.
 */
type Kind = 'set' | 'condition' | 'boom' | 'later' | 'later_boom' | 'code' | 'code_boom';
const FAILING: Kind[] = ['boom', 'later_boom', 'code_boom'];
interface GenNode {
  kind: Kind;
  continueOnError: boolean;
}
interface GenEdge {
  source: number;
  target: number;
  /** Only on edges leaving a condition. */
  handle?: 'true' | 'false';
}
/** A generated flow: node 0 is the trigger; every edge goes from a lower index to a higher one (no cycle). */
interface GenFlow {
  nodes: GenNode[];
  edges: GenEdge[];
  /** The branch each condition takes, by node index (through the input). */
  branches: boolean[];
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
const propNodes = [
  defineNode({ type: 'later', run: async (ctx) => (await turn(), { got: ctx.input }) }),
  defineNode({
    type: 'later_boom',
    run: async () => {
      await turn();
      throw new Error('later boom');
    },
  }),
];

const kind = fc.constantFrom<Kind>('set', 'set', 'set', 'condition', 'condition', 'condition', 'boom', 'later', 'later', 'later_boom', 'code', 'code_boom');
/** Where the edges into one node come from: mostly one predecessor, at times none (an orphan) or several. */
const incoming = fc.oneof(
  { arbitrary: fc.constant(0), weight: 1 },
  { arbitrary: fc.constant(1), weight: 5 },
  { arbitrary: fc.constant(2), weight: 3 },
  { arbitrary: fc.constant(3), weight: 1 },
);
/** A source (taken modulo the target's index), its handles if it is a condition, and whether the edge is doubled. */
const link = fc.tuple(fc.nat(), fc.constantFrom<Array<'true' | 'false'>>(['true'], ['false'], ['true'], ['false'], ['true', 'false']), fc.constantFrom(false, false, false, false, true));
/** Nodes after the trigger, each with the edges into it and the branch it takes if it is a condition. */
const flow: fc.Arbitrary<GenFlow> = fc
  .array(fc.record({ kind, continueOnError: fc.boolean(), branch: fc.boolean(), sources: incoming.chain((n) => fc.array(link, { minLength: n, maxLength: n })) }), { minLength: 1, maxLength: 9 })
  .map((generated) => {
    const all: GenNode[] = [{ kind: 'set', continueOnError: false }, ...generated.map(({ kind, continueOnError }) => ({ kind, continueOnError }))];
    const edges: GenEdge[] = [];
    for (const [k, { sources }] of generated.entries()) {
      const target = k + 1;
      // From an earlier node only (no cycle); from a condition, by one handle or both; at times twice over.
      for (const source of new Set(sources.map(([n]) => n % target))) {
        const [, handles, twice] = sources.find(([n]) => n % target === source)!;
        for (let copy = twice ? 2 : 1; copy > 0; copy--) {
          if (all[source].kind === 'condition') for (const handle of handles) edges.push({ source, target, handle });
          else edges.push({ source, target });
        }
      }
    }
    return { nodes: all, edges, branches: [false, ...generated.map((g) => g.branch)] };
  });

/** A node's id starts with its type (`code-3` for `code_boom` too). */
const nodeId = (flowNodes: GenNode[], i: number) => (i === 0 ? TRIGGER : `${flowNodes[i].kind === 'code_boom' ? 'code' : flowNodes[i].kind}-${i}`);

/** The weir config of a generated flow. */
function configOf(f: GenFlow) {
  const nodes = f.nodes.slice(1).map((n, k) => {
    const i = k + 1;
    const onError = n.continueOnError ? { onError: 'continue' } : {};
    if (n.kind === 'set') return { id: nodeId(f.nodes, i), type: 'set', config: { values: { n: i }, ...onError } };
    if (n.kind === 'condition') return { id: nodeId(f.nodes, i), type: 'condition', config: { rules: { '==': [{ var: `input.c${i}` }, true] }, ...onError } };
    if (n.kind === 'code') return { id: nodeId(f.nodes, i), type: 'code', config: { code: 'return { seen: $input }', ...onError } };
    if (n.kind === 'code_boom') return { id: nodeId(f.nodes, i), type: 'code', config: { code: "throw new Error('x')", ...onError } };
    return { id: nodeId(f.nodes, i), type: n.kind, config: onError };
  });
  const edges: FlowEdge[] = f.edges.map((e, k) => ({ id: `e${k}`, source: nodeId(f.nodes, e.source), target: nodeId(f.nodes, e.target), ...(e.handle ? { sourceHandle: e.handle } : {}) }));
  return chain(nodes, edges);
}

type Status = 'success' | 'error' | 'skipped';
/**
 * The reference model: each node's status in index order (a topological order), the nodes whose data each
 * node receives, and whether the execution fails. A node that fails without `continue` is recorded as `error`
 * and delivers nothing.
 */
function model(f: GenFlow): { status: Status[]; from: number[][]; fails: boolean } {
  const status: Status[] = ['success'];
  const from: number[][] = [[]];
  let fails = false;
  const delivers = (e: GenEdge) => {
    const source = f.nodes[e.source];
    if (status[e.source] === 'skipped') return false;
    if (status[e.source] === 'error' && !source.continueOnError) return false;
    return source.kind !== 'condition' || e.handle === (f.branches[e.source] ? 'true' : 'false');
  };
  for (let j = 1; j < f.nodes.length; j++) {
    const into = f.edges.filter((e) => e.target === j);
    from.push([...new Set(into.filter(delivers).map((e) => e.source))]);
    if (!into.some(delivers)) {
      status.push('skipped');
      continue;
    }
    const failing = FAILING.includes(f.nodes[j].kind);
    status.push(failing ? 'error' : 'success');
    if (failing && !f.nodes[j].continueOnError) fails = true;
  }
  return { status, from, fails };
}

/** Node indexes reachable from `from` along edges (not `from` itself). */
function downstream(f: GenFlow, from: number): Set<number> {
  const seen = new Set<number>();
  const stack = [from];
  while (stack.length) {
    const at = stack.pop();
    for (const e of f.edges) {
      if (e.source !== at || seen.has(e.target)) continue;
      seen.add(e.target);
      stack.push(e.target);
    }
  }
  return seen;
}

const describeFlow = (f: GenFlow) => JSON.stringify(configOf(f));

/** Runs a generated flow and checks it against the model. */
async function agree(weir: Weir, starts: Map<string, number>, f: GenFlow): Promise<void> {
  const input = Object.fromEntries(f.branches.map((b, i) => [`c${i}`, b]));
  const record = await runConfig(weir, configOf(f), input);
  const { status: expected, from, fails } = model(f);
  const ids = f.nodes.map((_, i) => nodeId(f.nodes, i));
  const seen = (i: number) => record.nodes[ids[i]]?.status as Status | undefined;
  const runs = (i: number) => starts.get(`${record.id} ${ids[i]}`) ?? 0;
  const where = `\n${describeFlow(f)}\ninput ${JSON.stringify(input)}\nweir: ${JSON.stringify(Object.fromEntries(ids.map((id, i) => [id, seen(i) ?? 'none'])))}\nmodel: ${JSON.stringify(Object.fromEntries(ids.map((id, i) => [id, expected[i]])))}`;

  for (const [i, id] of ids.entries()) {
    assert.ok(runs(i) <= 1, `${id} started ${runs(i)} times${where}`);
    const got = seen(i);
    // A node with a record has the status the model gives it, and started exactly when it ran; once the
    // execution fails, a node still running is cancelled with it.
    const cancelled = fails && got === 'error' && record.nodes[id].error?.code === 'CANCELLED';
    if (got !== undefined && !cancelled) assert.is(got, expected[i], `${id}${where}`);
    assert.is(runs(i), got === 'success' || got === 'error' ? 1 : 0, `${id} starts${where}`);
    // Its input: the data of the one node that delivered to it, or of several by node id.
    if (got === 'success' && f.nodes[i].kind === 'later') {
      const data = (k: number) => record.nodes[ids[k]].data;
      const input = from[i].length === 1 ? data(from[i][0]) : Object.fromEntries(from[i].map((k) => [ids[k], data(k)]));
      assert.equal((record.nodes[id].data as { got: unknown }).got, input, `${id} input${where}`);
    }
  }
  if (!fails) {
    assert.is(record.status, 'success', `execution status${where}`);
    for (const [i, id] of ids.entries()) assert.is(seen(i), expected[i], `${id}${where}`);
    return;
  }
  assert.is(record.status, 'error', `execution status${where}`);
  const failed = ids.indexOf(record.error?.node ?? '');
  assert.ok(failed > 0 && expected[failed] === 'error' && !f.nodes[failed].continueOnError, `the failure names a node that fails and stops: ${record.error?.node}${where}`);
  // Nothing after a node that stopped the execution runs, nor is it skipped: its edges never settle.
  for (const i of ids.keys()) {
    if (seen(i) !== 'error' || f.nodes[i].continueOnError) continue;
    for (const after of downstream(f, i)) assert.is(seen(after), undefined, `${ids[after]} after the failed ${ids[i]}${where}`);
  }
}

test('generated flows: every node runs at most once, and runs, is skipped or fails as the model says', async () => {
  const weir = await memoryWeir({ nodes: propNodes });
  const starts = new Map<string, number>();
  weir.bus.on('node:start', (e) => {
    const { executionId, nodeId: id } = e as { executionId: string; nodeId: string };
    starts.set(`${executionId} ${id}`, (starts.get(`${executionId} ${id}`) ?? 0) + 1);
  });
  try {
    await checkAsync('the executor agrees with the join-and-skip model', 150, FILE, fc.asyncProperty(flow, (f) => agree(weir, starts, f)));
  } finally {
    await weir.close();
  }
});

test.run();
