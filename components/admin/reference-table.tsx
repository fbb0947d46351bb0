'use client';

import { type QueryKey, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEventHandler, type ReactNode, useState } from 'react';
import { type Column, DataTable } from '@/components/ui/data-table';
import { FormOutcome, SubmitButton } from '@/components/ui/form';
import { Outcome, type Said } from '@/components/ui/mutation-outcome';
import styles from './users-admin.module.css';

/** What both kinds of reference data have: a name that never changes and whether profiles are offered it. */
interface ReferenceRow {
  name: string;
  selectable: boolean;
}

export const muted = (text: string) => <span className="muted">{text}</span>;

/** A table's rows as the server read them for the page, and when. */
export interface Initial<Row> {
  rows: Row[];
  at: number;
}

/**
 * A section of the Reference data page: its outcome line, its table with an Edit button per row (that row's form
 * under it) and its add form. A change read back from the server refreshes every list cached under `queryKey`.
 */
export function ReferenceTable<Row extends ReferenceRow>({
  queryKey,
  read,
  caption,
  noun,
  columns,
  initial,
  edit,
  add,
}: {
  queryKey: QueryKey;
  read: () => Promise<Row[]>;
  /** the rows the page was drawn with, read on the server when (`at`) it answered */
  initial: Initial<Row>;
  caption: string;
  noun: string;
  columns: Column<Row>[];
  edit: (row: Row, onDone: (said: Said | null) => void) => ReactNode;
  add: (onAdded: () => void) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const rows = useQuery({ queryKey, queryFn: read, initialData: initial.rows, initialDataUpdatedAt: initial.at });
  const [editing, setEditing] = useState<string | null>(null);
  const [said, setSaid] = useState<Said | null>(null);
  const refresh = () => void queryClient.invalidateQueries({ queryKey });
  const editColumn: Column<Row> = {
    id: 'actions',
    header: 'Actions',
    cell: (r) => (
      <button type="button" aria-label={`Edit ${r.name}`} aria-expanded={editing === r.name} onClick={() => setEditing(r.name)}>
        Edit
      </button>
    ),
  };
  return (
    <>
      <Outcome said={said} />
      <DataTable
        caption={caption}
        table={{ noun, rowKey: (r) => r.name, columns: [...columns, editColumn] }}
        rows={rows.data}
        query={rows}
        detail={(r) =>
          editing === r.name
            ? edit(r, (s) => {
                setEditing(null);
                if (s) {
                  setSaid(s);
                  refresh();
                }
              })
            : null
        }
      />
      {add(refresh)}
    </>
  );
}

/** What a saved reference row says: its name, and whether profiles may still pick it. */
export const savedReference = (row: ReferenceRow) =>
  `Saved ${row.name}: ${row.selectable ? 'offered on ERGA profiles' : 'retired, no longer offered'}.`;

/** A form under a table's row: its fields, the refusal that is not a field's, Save and Cancel. */
export function RowEditor({
  label,
  save,
  error,
  busy,
  onSubmit,
  onCancel,
  noValidate = true,
  children,
}: {
  label: string;
  save: string;
  error: string | null;
  busy: boolean;
  onSubmit: FormEventHandler<HTMLFormElement>;
  onCancel: () => void;
  noValidate?: boolean;
  children: ReactNode;
}) {
  return (
    <form className={styles.editor} aria-label={label} noValidate={noValidate} onSubmit={onSubmit}>
      {children}
      <FormOutcome error={error} />
      <div className={styles.actions}>
        <SubmitButton busy={busy} busyLabel="Saving…">
          {save}
        </SubmitButton>
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
