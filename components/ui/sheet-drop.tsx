'use client';

import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { ApiError } from '@/lib/client/api';
import { DropZone } from './drop-zone';

/** A sheet is uploaded as Excel saves it or as CSV. */
const SHEET_TYPES = {
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': ['.xlsx'],
  'text/csv': ['.csv'],
};

/**
 * The drop zone of a sheet that is checked on upload (a manifest, a sample sheet): one file at a time, the refusal
 * of a wrong one in the words of what to do instead (`refusal`), and once sent, its validation report opened as a
 * page of its own.
 */
export function SheetDrop({
  send,
  refusal,
  disabled = false,
  label,
  prompt,
  dropPrompt,
  testId,
  inputTestId,
  errorClassName,
}: {
  send: (file: File) => Promise<{ report_id: string }>;
  refusal: (rejections: FileRejection[]) => string;
  disabled?: boolean;
  label: string;
  prompt: string;
  dropPrompt: string;
  testId: string;
  inputTestId: string;
  errorClassName?: string;
}) {
  const router = useRouter();
  const errorId = `${useId()}-error`;
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);

  async function upload(file: File) {
    setUploading(true);
    setError(null);
    setSent(null);
    try {
      const res = await send(file);
      setSent(`${file.name} uploaded: opening its validation report…`);
      router.push(`/manifests/reports/${res.report_id}`);
    } catch (err) {
      setError(err instanceof ApiError ? err.message : String(err));
    } finally {
      setUploading(false);
    }
  }

  return (
    <>
      <DropZone
        options={{
          onDropAccepted: ([file]) => {
            if (file) void upload(file);
          },
          onDropRejected: (rejections) => {
            setSent(null);
            setError(refusal(rejections));
          },
          multiple: false,
          disabled: disabled || uploading,
          accept: SHEET_TYPES,
        }}
        label={label}
        describedBy={error ? errorId : undefined}
        invalid={Boolean(error)}
        testId={testId}
        inputTestId={inputTestId}
        prompt={uploading ? 'Uploading…' : prompt}
        dropPrompt={dropPrompt}
      />
      {error ? (
        <p id={errorId} role="alert" className={errorClassName ? `notice error ${errorClassName}` : 'notice error'}>
          {error}
        </p>
      ) : null}
      {sent ? (
        <p role="status" className="notice success">
          {sent}
        </p>
      ) : null}
    </>
  );
}
