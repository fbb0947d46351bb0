'use client';

import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/client/api';
import type { SpecimenImage } from '@/lib/images/contract';
import styles from './images.module.css';
import { manifestImagesKey } from './images-query';

/** Where an image is on its way to the BioImage Archive, in words. */
function stateWords(image: SpecimenImage): string {
  if (image.submitted) return `At the BioImage Archive as ${image.bioimage_name}, named after the specimen’s BioSample`;
  return image.status_detail ?? 'Waiting';
}

/**
 * Thumbnails of specimen images, each a link to the image, with its file name and where it is on its way to the
 * BioImage Archive. The alternative text names the specimen and the file.
 */
export function ImageThumbnails({ images, label }: { images: SpecimenImage[]; label: string }) {
  if (!images.length) return null;
  return (
    <ul className={styles.grid} aria-label={label}>
      {images.map((image) => (
        <li key={image.id}>
          <figure className={styles.figure}>
            <a href={image.url} target="_blank" rel="noreferrer">
              {/* biome-ignore lint/performance/noImgElement: thumbnails are served by the API, already small, behind its session */}
              <img
                className={styles.thumb}
                src={image.thumbnail_url}
                alt={`Specimen ${image.specimen_id}, file ${image.file_name}`}
                loading="lazy"
                width={144}
                height={144}
              />
            </a>
            <figcaption className={styles.caption}>
              <span className="mono">{image.file_name}</span>
              <br />
              <span className="muted">{stateWords(image)}</span>
            </figcaption>
          </figure>
        </li>
      ))}
    </ul>
  );
}

/** The images of a manifest's specimens; none shown to a reader the API does not show them to. */
export function useManifestImages(manifestId: string) {
  return useQuery({
    queryKey: manifestImagesKey(manifestId),
    queryFn: () => api.GET('/api/manifest/{manifest_id}/images', { params: { path: { manifest_id: manifestId } } }),
    retry: false,
  });
}

/** A manifest's images as thumbnails (the review queue): nothing when it has none. */
export function ManifestThumbnails({ manifestId, file }: { manifestId: string; file: string }) {
  const images = useManifestImages(manifestId);
  return <ImageThumbnails images={images.data?.data ?? []} label={`Specimen images of ${file}`} />;
}

/** The images of a sample's specimen (its page). */
export function SampleImagesSection({ svcId, specimenId, manifestId }: { svcId: string; specimenId: string | null; manifestId: string }) {
  const images = useQuery({
    queryKey: ['sample-images', svcId],
    queryFn: () => api.GET('/api/sample/{svc_id}/images', { params: { path: { svc_id: svcId } } }),
    retry: false,
  });
  const data = images.data?.data ?? [];
  return (
    <section aria-labelledby="images-heading">
      <h2 id="images-heading">Images of specimen {specimenId ?? ''}</h2>
      {images.isPending ? <p aria-busy="true">Loading the images…</p> : null}
      {images.isError ? (
        <p role="alert" className="notice error">
          The images could not be loaded: {images.error.message}
        </p>
      ) : null}
      {images.isSuccess && !data.length ? <p className="muted">No image of this specimen yet.</p> : null}
      <ImageThumbnails images={data} label={`Images of specimen ${specimenId ?? ''}`} />
      <p>
        <a href={`/manifests/${manifestId}#images`}>Add images of this specimen</a>{' '}
        <span className="muted">on its manifest’s page, named {specimenId ?? 'SPECIMEN_ID'}-1.jpg, -2.jpg, …</span>
      </p>
    </section>
  );
}
