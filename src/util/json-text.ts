/**
 * A value that carries its own JSON text, so code that serializes it can reuse the text: a webhook input
 * whose body arrived as JSON is written into the journal and its execution record from the request's own
 * text instead of being serialized again. The text is a private field: JSON, spreads, `Object.keys` and
 * copies do not see it, so a copy (a masked record) is serialized as usual. The text is the value as it
 * arrived: a node that changed the input in place would not see its change recorded. Cheaper than a
 * WeakMap, whose `set` costs about 20 times the object's allocation.
 * @example
 * class Input extends CarriesJson { constructor(public a: number, json?: string) { super(json) } }
 * CarriesJson.textOf(new Input(1, '{"a":1}')) // '{"a":1}'
 */
export abstract class CarriesJson {
  readonly #json: string | undefined;

  protected constructor(json: string | undefined) {
    this.#json = json;
  }

  /** The JSON text `value` carries, if any (its stored form, see {@link reviveWebhookInput}). */
  static textOf(value: unknown): string | undefined {
    return value instanceof CarriesJson ? value.#json : undefined;
  }

  /** The JSON text of `value` as `JSON.stringify` would write it, built from the text it carries, if any. */
  static wholeTextOf(value: unknown): string | undefined {
    return value instanceof CarriesJson ? value.wholeText() : undefined;
  }

  /** The whole JSON text: the carried one, unless a subclass carries a shorter stored form. */
  protected wholeText(): string | undefined {
    return this.#json;
  }
}

/**
 * A stored webhook input as the flow saw it. A webhook input's JSON text stores a JSON body once, as its
 * `rawBody` string, with `0` in the `body` placeholder; this parses the body back. A JSON body that really was `0`
 * parses back to `0`, and no other webhook body is the number 0, so the rule holds for every stored webhook
 * input; callers apply it to webhook inputs (journal entries, records of webhook runs) only.
 * @example
 * reviveWebhookInput({ body: 0, rawBody: '{"a":1}', headers: {}, query: {}, method: 'POST' }).body // { a: 1 }
 */
export function reviveWebhookInput<T>(input: T): T {
  const i = input as { body?: unknown; rawBody?: unknown } | null;
  if (i && i.body === 0 && typeof i.rawBody === 'string') i.body = JSON.parse(i.rawBody);
  return input;
}
