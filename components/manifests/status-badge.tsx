const TONE: Record<string, string> = { accepted: 'ok', rejected: 'danger', processing: '', pending: '', private: '', sending: '' };

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge ${TONE[status] ?? ''}`}>{status}</span>;
}
