'use client';

import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { FileRejection } from 'react-dropzone';
import { DropZone } from '@/components/ui/drop-zone';
import { plural } from '@/components/ui/words';
import { ApiError, api, formData } from '@/lib/client/api';
import { IMAGE_MAX_BYTES } from '@/lib/images/limits';
import styles from './images.module.css';
import { manifestImagesKey } from './images-query';
import { ImageThumbnails, useManifestImages } from './specimen-images';

const ACCEPT = { 'image/jpeg': ['.jpg', '.jpeg'], 'image/png': ['.png'], 'image/tiff': ['.tif', '.tiff'] };

const megabytes = (bytes: number) => `${Math.round((bytes / 2 ** 20) * 10) / 10} MB`;
const LIMIT = megabytes(IMAGE_MAX_BYTES);

/** Why the drop zone refused files, in words: each too large one by its size, the others by their kind. */
function refusal(rejections: FileRejection[]): string {
  const tooLarge = rejections.filter((r) => r.errors.some((e) => e.code === 'file-too-large'));
  const otherKind = rejections.filter((r) => !tooLarge.includes(r));
  const said = tooLarge.map((r) => `${r.file.name} is ${megabytes(r.file.size)}; the limit is ${LIMIT} an image.`);
  if (otherKind.length)
    said.push(
      `Not taken: ${otherKind.map((r) => r.file.name).join(', ')}. Images are JPEG, PNG or TIFF files (.jpg, .jpeg, .png, .tif, .tiff).`,
    );
  if (tooLarge.length) said.push('Save a smaller copy (a lower resolution or more compression) and send it again.');
  return said.join(' ');
}

/**
 * Beside a confirmed manifest's report: a drop zone for its specimens' images (named SPECIMEN_ID-1.jpg, …), the
 * server's answer beside it, and the thumbnails of the images it has, each saying whether it reached the BioImage
 * Archive or why it waits.
 */
export function ManifestImagesStep({ manifestId, contributes }: { manifestId: string; contributes: boolean }) {
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
    <section aria-labelledby={headingId} id="images">
      <h2 id={headingId}>Specimen images</h2>
      <p className="muted">
        Name each image by its specimen: SPECIMEN_ID-1.jpg, SPECIMEN_ID-2.png, … (JPEG, PNG or TIFF, each at most {LIMIT}). Once a specimen
        is registered at ENA, its images are sent to the BioImage Archive, named after the specimen’s BioSample accession (SAMEA…_1.jpg). An
        image uploaded again under the same name replaces one not sent yet.
      </p>
      {contributes ? null : <p className="muted">A contributor to the profile adds the images; you may see those it has.</p>}
      {contributes && (
        <DropZone
          options={{
            onDropAccepted: (files) => {
              if (files.length) void send(files);
            },
            onDropRejected: (rejections) => setMessage({ ok: false, text: refusal(rejections) }),
            accept: ACCEPT,
            maxSize: IMAGE_MAX_BYTES,
            multiple: true,
            disabled: busy,
          }}
          label="Upload specimen images: drop them here or press to choose them"
          describedBy={message ? messageId : undefined}
          invalid={message ? !message.ok : false}
          className={styles.drop}
          testId="images-drop"
          inputTestId="images-input"
          prompt={busy ? 'Uploading…' : `Drop the specimens’ images here, or press to choose them (each at most ${LIMIT})`}
          dropPrompt="Drop to upload"
        />
      )}
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
