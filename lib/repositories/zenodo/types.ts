import { z } from 'zod';

/** Zenodo's deposition API (docs/repositories.md §6): the metadata we send and the depositions and files it answers. */

export const ZENODO_UPLOAD_TYPES = [
  'publication',
  'poster',
  'presentation',
  'dataset',
  'image',
  'video',
  'software',
  'lesson',
  'physicalobject',
  'other',
] as const;
export type ZenodoUploadType = (typeof ZENODO_UPLOAD_TYPES)[number];

export interface ZenodoCreator {
  /** "Family, Given" */
  name: string;
  affiliation?: string;
  orcid?: string;
  gnd?: string;
}

export interface ZenodoRelatedIdentifier {
  identifier: string;
  /** isSupplementTo, isDerivedFrom, hasPart, … */
  relation: string;
  resource_type?: string;
  scheme?: string;
}

/** Deposition metadata in Zenodo's own field names, so it can be sent as it is. */
export interface ZenodoMetadata {
  upload_type: ZenodoUploadType;
  title: string;
  /** HTML allowed */
  description: string;
  creators: ZenodoCreator[];
  /** a Zenodo licence id (cc-zero, cc-by-4.0, …); required for open and embargoed access */
  license?: string;
  access_right?: 'open' | 'embargoed' | 'restricted' | 'closed';
  /** YYYY-MM-DD; Zenodo uses today when absent */
  publication_date?: string;
  embargo_date?: string;
  access_conditions?: string;
  publication_type?: string;
  image_type?: string;
  keywords?: string[];
  notes?: string;
  version?: string;
  language?: string;
  related_identifiers?: ZenodoRelatedIdentifier[];
  contributors?: (ZenodoCreator & { type: string })[];
  communities?: { identifier: string }[];
  grants?: { id: string }[];
  prereserve_doi?: boolean;
  doi?: string;
}

// Zenodo adds members over time: read what we use, keep the rest in `raw`
export const DepositionFileSchema = z.looseObject({
  id: z.string().optional(),
  filename: z.string().optional(),
  filesize: z.number().optional(),
  checksum: z.string().optional(),
});

export const DepositionSchema = z.looseObject({
  id: z.number(),
  state: z.string().optional(),
  submitted: z.boolean().optional(),
  doi: z.string().optional(),
  doi_url: z.string().optional(),
  record_id: z.number().optional(),
  conceptrecid: z.union([z.string(), z.number()]).optional(),
  conceptdoi: z.string().optional(),
  created: z.string().optional(),
  modified: z.string().optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  links: z.record(z.string(), z.unknown()).optional(),
  files: z.array(DepositionFileSchema).optional(),
});

export const BucketFileSchema = z.looseObject({
  key: z.string(),
  size: z.number().optional(),
  checksum: z.string().optional(),
  mimetype: z.string().optional(),
  links: z.record(z.string(), z.unknown()).optional(),
});

export const ZenodoErrorBodySchema = z.looseObject({
  message: z.string().optional(),
  status: z.number().optional(),
  errors: z
    .array(
      z.looseObject({
        code: z.union([z.number(), z.string()]).optional(),
        message: z.string().optional(),
        messages: z.array(z.string()).optional(),
        field: z.string().optional(),
      }),
    )
    .optional(),
});
export type ZenodoErrorBody = z.infer<typeof ZenodoErrorBodySchema>;

export interface ZenodoDepositionFile {
  id?: string;
  filename: string;
  size?: number;
  /** md5 hex */
  checksum?: string;
}

export interface ZenodoDeposition {
  id: number;
  /** unsubmitted or inprogress for a draft, done once published, error */
  state: string;
  submitted: boolean;
  /** set once published (10.5281/zenodo.N; 10.5072/… on the sandbox) */
  doi?: string;
  doiUrl?: string;
  recordId?: number;
  conceptDoi?: string;
  metadata: Record<string, unknown>;
  links: {
    self?: string;
    html?: string;
    bucket?: string;
    publish?: string;
    latest_draft?: string;
    [name: string]: string | undefined;
  };
  files: ZenodoDepositionFile[];
  /** the whole answer */
  raw: Record<string, unknown>;
}

/** A published deposition: a DOI is guaranteed. */
export type PublishedDeposition = ZenodoDeposition & { doi: string };

export interface ZenodoFile {
  key: string;
  size?: number;
  /** "md5:…" */
  checksum?: string;
  mimetype?: string;
  raw: Record<string, unknown>;
}

/** File content: bytes, text, a Blob, or a function returning a fresh stream per attempt (large files). */
export type ZenodoFileContent = Blob | Uint8Array | string | (() => ReadableStream<Uint8Array>);
