// Shared setup of the management API tests: a weir on a fresh home, served in-process over loopback, with
// flows published through the library, and the served OpenAPI document turned into response validators.
import * as assert from 'uvu/assert';
import Ajv2020Module from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { chain, publish, startHost } from '../host/_helpers.js';

const Ajv2020 = ((Ajv2020Module as any).default ?? Ajv2020Module) as typeof import('ajv/dist/2020.js').default;
const addFormats = ((addFormatsModule as any).default ?? addFormatsModule) as typeof import('ajv-formats').default;

/** A host with three flows: `hello` (manual -> set), `slow` (manual -> delay 50 ms that times out at 10 ms: fails), `hook` (webhook). */
export async function apiHost(options: Parameters<typeof startHost>[0] = {}) {
  const host = await startHost(options);
  const hello = await publish(host.weir, 'hello', { type: 'manual_trigger' }, ...Object.values(chain('manual_trigger', [{ type: 'set', config: { values: { greeting: 'hi {{ $input.name }}' } } }])) as [any[], any[]]);
  const failing = await publish(host.weir, 'failing', { type: 'manual_trigger' }, ...Object.values(chain('manual_trigger', [{ type: 'delay', config: { ms: 2000, timeoutMs: 10 } }])) as [any[], any[]]);
  const hook = await publish(host.weir, 'hook', { type: 'webhook_trigger' });
  const token = await host.weir.interfaces.accessToken();
  /** A request to the API: JSON body, the host token unless `auth` says otherwise (null: none). */
  async function call(method: string, path: string, body?: unknown, auth: string | null = token, headers: Record<string, string> = {}) {
    const res = await fetch(`${host.url}/api/v1${path}`, {
      method,
      headers: { ...(auth === null ? {} : { authorization: `Bearer ${auth}` }), ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : undefined };
  }
  return { ...host, token, call, flows: { hello, failing, hook } };
}

/** Validators of each operation's success answer, compiled by ajv (JSON Schema 2020-12) from the served document. */
export function responseValidators(doc: any) {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: 'openapi.json', components: doc.components });
  return (method: string, path: string, status: number) => {
    const op = doc.paths[path]?.[method.toLowerCase()];
    assert.ok(op, `the document has ${method} ${path}`);
    const content = op.responses[String(status)]?.content;
    assert.ok(content, `${method} ${path} declares a ${status} answer`);
    const media = Object.keys(content)[0];
    // The operation's schema, with its `#/components/...` references resolved inside the document.
    const schema = JSON.parse(JSON.stringify(content[media].schema).replaceAll('"#/components/', '"openapi.json#/components/'));
    return ajv.compile(schema);
  };
}
