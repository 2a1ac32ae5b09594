import { cli, flow, writeJson } from '../../_utils.js';

/** Creates and publishes `name`: interface_event_trigger -> set -> respond, answering {reply: "Hello, <message>!"}. */
export async function publishGreeter(home: string, dir: string, name: string): Promise<void> {
  const created = await cli(['f', 'create', name, '--json'], { home });
  if (created.code !== 0) throw new Error(created.stderr);
  const config = flow(
    { type: 'interface_event_trigger', config: { inputParams: [{ name: 'message', type: 'string', required: true }] } },
    [
      { id: 'set-1', type: 'set', config: { values: { reply: 'Hello, {{ $input.message }}!' } } },
      { id: 'respond-1', type: 'respond', config: { status: 200, body: '{{ $node.set-1.data }}' } },
    ],
    [
      { id: 'e1', source: 'interface_event_trigger-1', target: 'set-1' },
      { id: 'e2', source: 'set-1', target: 'respond-1' },
    ],
  );
  const file = writeJson(dir, `${name}.json`, config);
  for (const args of [['f', 'save', created.json().id, file], ['f', 'publish', created.json().id]]) {
    const r = await cli(args, { home });
    if (r.code !== 0) throw new Error(`${args.join(' ')}: ${r.stderr}`);
  }
}

export { startServe } from '../../_utils.js';
