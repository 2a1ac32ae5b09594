import { spawn, type ChildProcess } from 'node:child_process';
import { CLI, cli, flow, writeJson } from '../_utils.js';

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

/** `weir serve --port 0` on a home; resolves with its URL once it prints it. */
export function startServe(home: string): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--home', home], { env: { ...process.env, WEIR_HOME: '' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (d: Buffer) => {
      out += d;
      const url = /http:\/\/[\w.]+:\d+/.exec(out)?.[0];
      if (url) {
        clearTimeout(timer);
        child.stdout!.off('data', onData);
        resolve({ url, child, stop: () => new Promise((r) => (child.exitCode !== null ? r() : (child.once('exit', () => r()), child.kill('SIGTERM')))) });
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (d) => (out += d));
    child.once('exit', (code) => reject(new Error(`weir serve exited (${code}) before listening:\n${out}`)));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`weir serve did not listen within 20 s:\n${out}`));
    }, 20_000);
  });
}
