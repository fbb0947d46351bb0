/**
 * What the images' client queries ask the API for, said once for them (specimen-images.tsx, image-upload.tsx) and for
 * the server, which reads a review queue's thumbnails with its page (app/(portal)/manifests/review/page.tsx).
 */

/** the images uploaded beside a manifest: GET /api/manifest/{manifest_id}/images */
export const manifestImagesKey = (manifestId: string) => ['manifest-images', manifestId] as const;
