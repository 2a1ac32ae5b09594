/** Variable paths of a webhook payload (`body.a.b`), as a flow's expressions read them under `$input`. */
export function VariableList({ label, variables }: { label: string; variables: string[] }) {
  if (!variables.length) return <p className="muted">No variables: the payload is empty.</p>;
  return (
    <ul className="variables" aria-label={label}>
      {variables.map((v) => (
        <li key={v}>
          <code>{v}</code>
        </li>
      ))}
    </ul>
  );
}
