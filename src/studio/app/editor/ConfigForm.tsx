import { useId } from 'react';
import type { Completion } from './completions.js';
import { JsonText } from './JsonText.js';
import { problemsAt } from './problems.js';
import { emptyOf, kindOf, mapValueSchema, type JsonSchema } from './schema.js';
import { TemplateInput } from './TemplateInput.js';

type NodeProblems = { path: string; message: string }[] | undefined;

interface FormContext {
  completions: Completion[];
  problems: NodeProblems;
}

interface Props extends FormContext {
  schema: JsonSchema | null;
  value: Record<string, unknown>;
  /** The new config, and the key path edited (`headers.accept`), which the undo history joins keystrokes by. */
  onChange(value: Record<string, unknown>, keyPath: string): void;
}

/**
 * A node's config as a form made from its type's JSON schema: a control per key (text with `{{ }}` completions,
 * number, checkbox, choice, group, map, list, or JSON), required keys marked, each key's description and problems.
 * Keys in the config that the schema does not name are shown too, as JSON, so nothing is hidden.
 */
export function ConfigForm({ schema, value, onChange, completions, problems }: Props) {
  const ctx = { completions, problems };
  const props = schema?.properties ?? {};
  const extra = Object.keys(value).filter((k) => !(k in props));
  const set = (key: string, v: unknown) => onChange(withKey(value, key, v), key);
  if (!schema) return <p className="muted">This node type declares no config schema: edit its config as JSON.</p>;
  return (
    <div className="config-form">
      {Object.entries(props).map(([key, s]) => (
        <Field key={key} name={key} path={key} schema={s} required={schema.required?.includes(key) ?? false} value={value[key]} onChange={(v) => set(key, v)} ctx={ctx} />
      ))}
      {extra.map((key) => (
        <Field key={key} name={key} path={key} schema={undefined} required={false} value={value[key]} onChange={(v) => set(key, v)} ctx={ctx} />
      ))}
    </div>
  );
}

/** `obj` with `key` set to `v`; `undefined` removes the key. */
function withKey(obj: Record<string, unknown>, key: string, v: unknown): Record<string, unknown> {
  const next = { ...obj };
  if (v === undefined) delete next[key];
  else next[key] = v;
  return next;
}

interface FieldProps {
  name: string;
  /** The key path from the config's root (`retry.max`, `headers.accept`, `inputParams[0].name`): the control's accessible name. */
  path: string;
  schema: JsonSchema | undefined;
  required: boolean;
  value: unknown;
  onChange(v: unknown): void;
  ctx: FormContext;
}

/** One key: its label (required marked), its control, its description and its problems. */
function Field({ name, path, schema, required, value, onChange, ctx }: FieldProps) {
  const id = useId();
  const kind = kindOf(schema);
  const problems = problemsAt(ctx.problems, path);
  const head = (
    <>
      <span className="field-name">{name}</span>
      {required && (
        <span className="req" title="required">
          {' '}*
        </span>
      )}
      {value === undefined && !required && <span className="muted"> (not set)</span>}
    </>
  );
  const notes = (
    <>
      {schema?.description && <div className="field-help">{schema.description}</div>}
      {problems.map((p) => (
        <div key={p} className="field-problem" role="alert">
          ⚠ {p}
        </div>
      ))}
    </>
  );
  if (kind === 'object' || kind === 'map' || kind === 'array') {
    return (
      <fieldset className={`field field-group${problems.length ? ' field-bad' : ''}`}>
        <legend>{head}</legend>
        {notes}
        {kind === 'object' && <ObjectFields schema={schema!} path={path} value={value} onChange={onChange} ctx={ctx} />}
        {kind === 'map' && <MapFields schema={schema!} path={path} value={value} onChange={onChange} ctx={ctx} />}
        {kind === 'array' && <ListFields schema={schema!} path={path} value={value} onChange={onChange} ctx={ctx} />}
      </fieldset>
    );
  }
  return (
    <div className={`field${problems.length ? ' field-bad' : ''}`}>
      <label htmlFor={id}>{head}</label>
      <Control id={id} kind={kind} schema={schema} path={path} required={required} value={value} onChange={onChange} ctx={ctx} invalid={problems.length > 0} />
      {notes}
    </div>
  );
}

/** A number as typed: a number when it reads as one, else the text (a `{{ }}` template); empty unsets it. */
function readNumber(text: string): unknown {
  if (!text.trim()) return undefined;
  return /^\s*-?\d+(\.\d+)?([eE][-+]?\d+)?\s*$/.test(text) ? Number(text) : text;
}

function Control({ id, kind, schema, path, required, value, onChange, ctx, invalid }: { id: string; kind: string; schema: JsonSchema | undefined; path: string; required: boolean; value: unknown; onChange(v: unknown): void; ctx: FormContext; invalid: boolean }) {
  switch (kind) {
    case 'string':
      // A value of another type (a number in a string field) shows as JSON, not as text that would change its type.
      if (value !== undefined && typeof value !== 'string') return <JsonText label={path} value={value} onChange={onChange} rows={1} />;
      return <TemplateInput id={id} label={path} value={(value as string | undefined) ?? ''} onChange={(t) => onChange(t === '' && !required ? undefined : t)} completions={ctx.completions} invalid={invalid} multiline={String(value ?? '').includes('\n')} />;
    case 'number':
      return <TemplateInput id={id} label={path} value={value === undefined ? '' : String(value)} onChange={(t) => onChange(readNumber(t))} completions={ctx.completions} invalid={invalid} />;
    case 'boolean':
      return (
        <select id={id} aria-label={path} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value === 'true')}>
          <option value="">(default)</option>
          <option value="true">true</option>
          <option value="false">false</option>
        </select>
      );
    case 'enum':
      return (
        <select id={id} aria-label={path} value={value === undefined ? '' : String(value)} onChange={(e) => onChange(e.target.value === '' ? undefined : schema!.enum!.find((v) => String(v) === e.target.value))}>
          <option value="">{required ? '(choose)' : '(default)'}</option>
          {schema!.enum!.map((v) => (
            <option key={String(v)} value={String(v)}>
              {String(v)}
            </option>
          ))}
        </select>
      );
    default:
      return <JsonText label={path} value={value} onChange={onChange} rows={value !== undefined && JSON.stringify(value).length > 40 ? 5 : 2} />;
  }
}

type GroupProps = { schema: JsonSchema; path: string; value: unknown; onChange(v: unknown): void; ctx: FormContext };

const asObject = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

function ObjectFields({ schema, path, value, onChange, ctx }: GroupProps) {
  const obj = asObject(value);
  return (
    <>
      {Object.entries(schema.properties!).map(([key, s]) => (
        <Field key={key} name={key} path={`${path}.${key}`} schema={s} required={schema.required?.includes(key) ?? false} value={obj[key]} onChange={(v) => onChange(emptyToUndefined(withKey(obj, key, v)))} ctx={ctx} />
      ))}
    </>
  );
}

/** A group with no key left is removed rather than kept as `{}`. */
const emptyToUndefined = (o: Record<string, unknown>) => (Object.keys(o).length ? o : undefined);

/** Free keys (`additionalProperties`): a row per entry, its key renamed in place, entries added and removed. */
function MapFields({ schema, path, value, onChange, ctx }: GroupProps) {
  const obj = asObject(value);
  const valueSchema = mapValueSchema(schema);
  const entries = Object.entries(obj);
  const rename = (from: string, to: string) => onChange(Object.fromEntries(entries.map(([k, v]) => [k === from ? to : k, v])));
  const add = () => {
    let key = 'key';
    for (let i = 2; key in obj; i++) key = `key${i}`;
    onChange({ ...obj, [key]: valueSchema ? emptyOf(valueSchema) : '' });
  };
  return (
    <div className="map-fields">
      {entries.map(([k, v], i) => (
        <div className="map-row" key={i}>
          <input aria-label={`${path} key ${i + 1}`} value={k} onChange={(e) => e.target.value && !(e.target.value in obj) && rename(k, e.target.value)} />
          <div className="map-value">
            {valueSchema && kindOf(valueSchema) !== 'string' ? (
              <Field name={k} path={`${path}.${k}`} schema={valueSchema} required={false} value={v} onChange={(nv) => onChange(withKey(obj, k, nv))} ctx={ctx} />
            ) : typeof v === 'string' ? (
              <TemplateInput label={`${path}.${k}`} value={v} onChange={(t) => onChange({ ...obj, [k]: t })} completions={ctx.completions} />
            ) : (
              <JsonText label={`${path}.${k}`} value={v} onChange={(nv) => onChange(withKey(obj, k, nv))} rows={1} />
            )}
          </div>
          <button className="icon" aria-label={`Remove ${path}.${k}`} onClick={() => onChange(emptyToUndefined(withKey(obj, k, undefined)))}>
            ×
          </button>
        </div>
      ))}
      <button onClick={add}>Add entry</button>
    </div>
  );
}

/** A list: a control per item (by `items`), items added and removed. */
function ListFields({ schema, path, value, onChange, ctx }: GroupProps) {
  const list = Array.isArray(value) ? value : [];
  return (
    <div className="list-fields">
      {list.map((item, i) => (
        <div className="list-row" key={i}>
          <Field name={`${i + 1}.`} path={`${path}[${i}]`} schema={schema.items} required={false} value={item} onChange={(v) => onChange(list.map((x, j) => (j === i ? v : x)))} ctx={ctx} />
          <button className="icon" aria-label={`Remove ${path}[${i}]`} onClick={() => onChange(list.length > 1 ? list.filter((_, j) => j !== i) : undefined)}>
            ×
          </button>
        </div>
      ))}
      <button onClick={() => onChange([...list, emptyOf(schema.items)])}>Add item</button>
    </div>
  );
}
