const TONE: Record<string, string> = { accepted: 'ok', rejected: 'danger' };
// the statuses as people read them; the API keeps the reference's machine names
const LABEL: Record<string, string> = { awaiting_ena: 'awaiting ENA', awaiting_tolid: 'awaiting ToLID' };

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${TONE[status] ?? ''}`}>{LABEL[status] ?? status}</span>;
}
