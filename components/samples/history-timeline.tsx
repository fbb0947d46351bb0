import { UpdateIcon, UpdateTypeBadge } from '@/components/ui/update-type';
import type { UpdateType } from '@/lib/query/contract';
import { ENA_MODIFY_FIELD, ENA_REFUSAL_FIELD, REGISTRATION_FAILURE_FIELD } from '@/lib/samples/contract';
import styles from './history-timeline.module.css';
import { StatusWords, statusWords } from './sample-state';

export interface HistoryItem {
  id: number;
  field: string;
  oldValue: string | null;
  newValue: string | null;
  updateType: UpdateType;
  timeUpdated: Date;
  /** who made a user update; only for those who may see the whole sample */
  actor: string | null;
}

interface Entry {
  key: number;
  type: UpdateType;
  at: Date;
  actor: string | null;
  changes: HistoryItem[];
}

/** One re-upload or one system step changes several fields at the same instant: shown as one entry. */
function entries(history: HistoryItem[]): Entry[] {
  const out: Entry[] = [];
  for (const h of history) {
    const last = out[out.length - 1];
    if (last && last.type === h.updateType && last.actor === h.actor && last.at.getTime() === h.timeUpdated.getTime()) {
      last.changes.push(h);
    } else {
      out.push({ key: h.id, type: h.updateType, at: h.timeUpdated, actor: h.actor, changes: [h] });
    }
  }
  return out;
}

const shown = (v: string | null) => (v ? v : <span className="muted">(empty)</span>);

/** A sample's changes, newest first, old → new values, user and system updates told apart. */
export function HistoryTimeline({ history }: { history: HistoryItem[] }) {
  if (history.length === 0) return <p className="muted">No changes since the sample was created.</p>;
  return (
    <ol className="timeline" aria-label="Changes, newest first">
      {entries(history).map((e) => (
        <li key={e.key} className={`update-${e.type}`}>
          <span className="timeline-marker" aria-hidden="true">
            <UpdateIcon type={e.type} />
          </span>
          <p className="timeline-head">
            <UpdateTypeBadge type={e.type} />{' '}
            <time dateTime={e.at.toISOString()}>
              {e.at
                .toISOString()
                .replace('T', ' ')
                .replace(/\.\d+Z$/, ' UTC')}
            </time>
            {e.actor && <span className="muted"> by {e.actor}</span>}
          </p>
          <ul className="changes">
            {e.changes.map((c) =>
              c.field === ENA_MODIFY_FIELD ? (
                <li key={c.id}>
                  The correction was sent to ENA (MODIFY) and accepted: receipt <span className="mono">{shown(c.newValue)}</span>
                </li>
              ) : c.field === ENA_REFUSAL_FIELD ? (
                // ENA's receipt names every sample of the document: folded, so the change of state reads first
                <li key={c.id}>
                  ENA refused the registration; a sample manager sends it again once the cause is fixed.
                  <details className={styles.message}>
                    <summary>ENA’s message</summary>
                    <p>{shown(c.newValue)}</p>
                  </details>
                </li>
              ) : c.field === REGISTRATION_FAILURE_FIELD ? (
                <li key={c.id}>Registration failed: {shown(c.newValue)}</li>
              ) : c.field === 'status' ? (
                // a change of state in the words and colours the rest of the portal uses: a rejection is not news in green
                <li key={c.id}>
                  Status: {c.oldValue ? statusWords(c.oldValue) : '(none)'} → <StatusWords status={c.newValue ?? ''} />
                </li>
              ) : (
                <li key={c.id}>
                  <span className="mono">{c.field}</span>: <del>{shown(c.oldValue)}</del> → <ins>{shown(c.newValue)}</ins>
                </li>
              ),
            )}
          </ul>
        </li>
      ))}
    </ol>
  );
}
