/**
 * A gate that opens once per event-loop turn, in its check phase (`setImmediate`): every caller during a
 * turn waits on the same promise, so work that arrives piece by piece while the loop reads ready sockets
 * is done together once it has read them all. Costs one promise per turn, not per caller.
 * @example
 * const nextTurn = createTurnGate()
 * await nextTurn() // later in this turn, with everything else that waited on it
 */
export function createTurnGate(): () => Promise<void> {
  let gate: Promise<void> | null = null;
  let open: () => void = () => {};
  const release = () => {
    gate = null;
    open();
  };
  return () => {
    if (!gate) {
      gate = new Promise<void>((resolve) => (open = resolve));
      setImmediate(release);
    }
    return gate;
  };
}
