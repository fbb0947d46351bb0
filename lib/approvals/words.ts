const and = (types: readonly string[]) =>
  types.length > 1 ? `${types.slice(0, -1).join(', ')} and ${types[types.length - 1]}` : (types[0] ?? '');

/**
 * What a pending sample still waits for, as its reader should understand it: the awaited types the reader approves
 * (`yours`, which one accept of theirs records) told apart from those that need someone else. Saying "still needs the
 * approval of A and B" to the one person whose accept gives both read as if others had to act.
 */
export function awaitingWords(waiting: readonly string[], yours: readonly string[] = []): string | null {
  if (!waiting.length) return null;
  const mine = waiting.filter((t) => yours.includes(t));
  const others = waiting.filter((t) => !yours.includes(t));
  if (!mine.length) return `still needs the approval of ${and(others)}`;
  const own = `your accept approves ${and(mine)}`;
  return others.length
    ? `${own}; it then needs the approval of ${and(others)}`
    : `${own}, its last ${mine.length === 1 ? 'approval' : 'approvals'}`;
}
