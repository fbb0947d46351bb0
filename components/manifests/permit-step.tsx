'use client';

import { useId, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { DropZone } from '@/components/ui/drop-zone';
import { When } from '@/components/ui/when';
import { plural } from '@/components/ui/words';
import { ApiError, api, formData } from '@/lib/client/api';
import type { PermitKind, ReportPermit } from '@/lib/permits/contract';
import styles from './report.module.css';

const KIND_WORDS: Record<PermitKind, string> = { ETHICS: 'ethics', SAMPLING: 'sampling', NAGOYA: 'Nagoya' };

/**
 * ERGA: the permit PDFs the manifest names, one drop zone each. A PDF dropped on a permit is sent under the name the
 * manifest gives it, whatever the file is called on the submitter's disk; the server checks it is a real PDF, and its
 * refusal is shown beside the permit it concerns.
 */
export function PermitStep({
  reportId,
  permits,
  onUploaded,
}: {
  reportId: string;
  permits: ReportPermit[];
  onUploaded: (permits: ReportPermit[]) => void;
}) {
  const received = permits.filter((p) => p.received).length;
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} className={styles.permits}>
      <h3 id={headingId}>
        Permits: {received} of {permits.length} received
      </h3>
      <p className="muted">
        This ERGA manifest names {plural(permits.length, 'permit PDF')}. Drop each PDF on its line (or press the line to choose it); the
        manifest can be confirmed once every one has arrived.
      </p>
      <ul className={styles.permitList}>
        {permits.map((p) => (
          <PermitLine key={p.filename} reportId={reportId} permit={p} onUploaded={onUploaded} />
        ))}
      </ul>
    </section>
  );
}

function refusal(rejections: FileRejection[]): string {
  if (rejections.length > 1) return 'Drop one PDF on each permit.';
  const name = rejections[0]?.file.name ?? 'The file';
  return `${name} is not a PDF: each permit is uploaded as the PDF the manifest names.`;
}

function PermitLine({
  reportId,
  permit,
  onUploaded,
}: {
  reportId: string;
  permit: ReportPermit;
  onUploaded: (permits: ReportPermit[]) => void;
}) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const messageId = useId();

  async function send(file: File) {
    setBusy(true);
    setMessage(null);
    try {
      const answer = await api.POST('/api/manifest/validate/permits', {
        // the server matches permits by the name the manifest gives them
        body: { validation_report_id: reportId, file: new File([file], permit.filename, { type: 'application/pdf' }) },
        bodySerializer: formData,
      });
      setMessage({
        ok: true,
        text: file.name === permit.filename ? `${permit.filename} received.` : `${file.name} received as ${permit.filename}.`,
      });
      onUploaded(answer.permits);
    } catch (err) {
      setMessage({ ok: false, text: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  const kinds = permit.kinds.map((k) => KIND_WORDS[k]).join(' and ');
  return (
    <li className={styles.permit}>
      <div className={styles.permitHead}>
        <span className={`badge ${permit.received ? 'ok' : 'danger'}`}>{permit.received ? 'Received' : 'Missing'}</span>{' '}
        <span className="mono">{permit.filename}</span>{' '}
        <span className="muted">
          ({kinds} permit, for {plural(permit.required_by.length, 'specimen')}
          {permit.uploaded ? (
            <>
              ; received <When value={permit.uploaded} />
            </>
          ) : null}
          )
        </span>
      </div>
      <DropZone
        options={{
          onDropAccepted: ([file]) => {
            if (file) void send(file);
          },
          onDropRejected: (rejections) => setMessage({ ok: false, text: refusal(rejections) }),
          accept: { 'application/pdf': ['.pdf'] },
          multiple: false,
          disabled: busy,
        }}
        label={`${permit.received ? 'Replace' : 'Upload'} the permit ${permit.filename}: drop its PDF here or press to choose it`}
        describedBy={message ? messageId : undefined}
        className={styles.permitDrop}
        inputTestId="permit-input"
        prompt={busy ? 'Uploading…' : permit.received ? 'Drop another PDF here to replace it' : `Drop the PDF of ${permit.filename} here`}
      />
      {message ? (
        <p id={messageId} role={message.ok ? 'status' : 'alert'} className={`notice ${message.ok ? 'success' : 'error'} ${styles.near}`}>
          {message.text}
        </p>
      ) : null}
    </li>
  );
}
