// A local stand-in for a language model: it answers in the documented response shapes of OpenAI's
// chat-completions API or Anthropic's Messages API (ids, finish/stop reasons, tool calls, usage), with
// whatever the test's `reply` says, and records every request for assertions.
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Reply = {
  text?: string;
  toolCalls?: { name: string; input: unknown; id?: string }[];
  usage?: { input: number; output: number };
  status?: number;
  headers?: Record<string, string>;
  body?: unknown;
};

export interface ModelServer {
  url: string;
  requests: { path: string; headers: Record<string, string>; body: any }[];
  close(): Promise<void>;
}

const PATHS = { openai: '/v1/chat/completions', anthropic: '/v1/messages' } as const;

/** A chat-completions answer (`chat.completion`), tool call arguments as a JSON string. */
function openaiAnswer(reply: Reply, model: string, n: number) {
  const usage = reply.usage ?? { input: 10, output: 5 };
  const calls = reply.toolCalls ?? [];
  return {
    id: `chatcmpl-${n}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: calls.length && !reply.text ? null : (reply.text ?? ''),
          refusal: null,
          ...(calls.length
            ? { tool_calls: calls.map((c, i) => ({ id: c.id ?? `call_${n}_${i}`, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.input) } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: calls.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
  };
}

/** A Messages API answer (`message`) with `text` and `tool_use` content blocks. */
function anthropicAnswer(reply: Reply, model: string, n: number) {
  const usage = reply.usage ?? { input: 10, output: 5 };
  const calls = reply.toolCalls ?? [];
  return {
    id: `msg_${n}`,
    type: 'message',
    role: 'assistant',
    model,
    content: [
      ...(reply.text ? [{ type: 'text', text: reply.text }] : []),
      ...calls.map((c, i) => ({ type: 'tool_use', id: c.id ?? `toolu_${n}_${i}`, name: c.name, input: c.input })),
    ],
    stop_reason: calls.length ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { input_tokens: usage.input, output_tokens: usage.output },
  };
}

/**
 * A loopback server speaking the documented response shapes of `dialect`; `reply` is called per request
 * with the parsed body and the request's 0-based number. `status`/`headers`/`body` send an error response as given.
 * @example
 * const server = await modelServer('openai', ({ n }) => (n === 0 ? { toolCalls: [{ name: 'lookup', input: { q: 'x' } }] } : { text: 'done' }))
 */
export async function modelServer(
  dialect: 'openai' | 'anthropic',
  reply: (request: { body: any; n: number }) => Reply | Promise<Reply>,
): Promise<ModelServer> {
  const requests: ModelServer['requests'] = [];
  const open = new Set<ServerResponse>();
  const send = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    open.add(res);
    res.on('close', () => open.delete(res));
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    let body: any;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      return send(res, 400, { error: { message: 'request body is not JSON', type: 'invalid_request_error' } });
    }
    const path = new URL(req.url!, 'http://fake').pathname;
    const n = requests.length;
    requests.push({ path, headers: req.headers as Record<string, string>, body });
    if (req.method !== 'POST' || path !== PATHS[dialect]) {
      const error = dialect === 'openai' ? { error: { message: `Unknown request URL: ${req.method} ${path}`, type: 'invalid_request_error', code: 'unknown_url' } } : { type: 'error', error: { type: 'not_found_error', message: 'Not found' } };
      return send(res, 404, error);
    }
    const r = await reply({ body, n });
    if (r.status !== undefined && r.status >= 400) return send(res, r.status, r.body, r.headers);
    const model = String(body?.model ?? 'fake-model');
    send(res, r.status ?? 200, r.body ?? (dialect === 'openai' ? openaiAnswer(r, model, n) : anthropicAnswer(r, model, n)), r.headers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
