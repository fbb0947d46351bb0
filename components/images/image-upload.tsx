'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { DropZone } from '@/components/ui/drop-zone';
import { plural } from '@/components/ui/words';
import { ApiError, api, formData } from '@/lib/client/api';
import styles from './images.module.css';
import { ImageThumbnails, manifestImagesKey, useManifestImages } from './specimen-images';

const ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/tiff': ['.tif', '.tiff'] };

function refusal(rejections: FileRejection[]): string {
  const names = rejections.map((r) => r.file.name).join(', ');
  return `Not taken: ${names}. Images are JPEG, PNG or TIFF files (.jpg, .jpeg, .png, .tif, .tiff).`;
}

/**
 * Beside a confirmed manifest's report: a drop zone for its specimens' images (named SPECIMEN_ID-1.jpg, …), the
 * server's answer beside it, and the thumbnails of the images it has, each saying whether it reached the BioImage
 * Archive or why it waits.
 */
export function ManifestImagesStep({ manifestId }: { manifestId: string }) {
  const qc = useQueryClient();
  const images = useManifestImages(manifestId);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const headingId = useId();
  const messageId = useId();

  async function send(files: File[]) {
    setBusy(true);
    setMessage(null);
    try {
      const answer = await api.POST('/api/manifest/{manifest_id}/images', {
        params: { path: { manifest_id: manifestId } },
        body: { files },
        bodySerializer: formData,
      });
      setMessage({ ok: true, text: `${plural(answer.number_found, 'image')} stored: ${answer.data.map((i) => i.file_name).join(', ')}.` });
      await qc.invalidateQueries({ queryKey: manifestImagesKey(manifestId) });
    } catch (err) {
      setMessage({ ok: false, text: err instanceof ApiError ? err.message : String(err) });
    } finally {
      setBusy(false);
    }
  }

  const data = images.data?.data ?? [];
  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId}>Specimen images</h2>
      <p className="muted">
        Name each image by its specimen: SPECIMEN_ID-1.jpg, SPECIMEN_ID-2.png, … (JPEG, PNG or TIFF). Once a specimen is registered at ENA,
        its images are sent to the BioImage Archive. An image uploaded again under the same name replaces one not sent yet.
      </p>
      <DropZone
        options={{
          onDropAccepted: (files) => {
            if (files.length) void send(files);
          },
          onDropRejected: (rejections) => setMessage({ ok: false, text: refusal(rejections) }),
          accept: ACCEPT,
          multiple: true,
          disabled: busy,
        }}
        label="Upload specimen images: drop them here or press to choose them"
        describedBy={message ? messageId : undefined}
        invalid={message ? !message.ok : false}
        className={styles.drop}
        testId="images-drop"
        inputTestId="images-input"
        prompt={busy ? 'Uploading…' : 'Drop the specimens’ images here, or press to choose them'}
        dropPrompt="Drop to upload"
      />
      {message ? (
        <p id={messageId} role={message.ok ? 'status' : 'alert'} className={`notice ${message.ok ? 'success' : 'error'} ${styles.near}`}>
          {message.text}
        </p>
      ) : null}
      {images.isError ? (
        <p role="alert" className="notice error">
          The images could not be loaded: {images.error.message}
        </p>
      ) : null}
      {images.isSuccess && !data.length ? <p className="muted">No image uploaded yet.</p> : null}
      <ImageThumbnails images={data} label="Images of this manifest’s specimens" />
    </section>
  );
}
