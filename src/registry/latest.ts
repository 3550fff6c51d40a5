/** One line per finding id (kept apart from reader.ts so pure modules import no I/O). */

/**
 * The current state of each finding: the last valid line per `id`, in file order. Writers of the
 * agentops tooling update a finding by appending a whole new line with the same id (e.g. with
 * `status: "retired"`) and their readers take the last line per id (docs/registry.md "Appended
 * updates"), so a later line is the newer state and every reader here agrees. Pure.
 */
export function latestById<T extends { readonly entry: { readonly id: string } }>(lines: readonly T[]): T[] {
  const last = new Map<string, T>();
  for (const l of lines) {
    last.delete(l.entry.id); // re-inserted below, so the map keeps the later line's position
    last.set(l.entry.id, l);
  }
  return [...last.values()];
}
