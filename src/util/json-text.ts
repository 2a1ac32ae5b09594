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

  /** The JSON text `value` carries, if any. */
  static textOf(value: unknown): string | undefined {
    return value instanceof CarriesJson ? value.#json : undefined;
  }
}
