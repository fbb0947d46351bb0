import { plural } from '@/components/ui/words';
import type { Repository, Submission, SubmissionReceipt } from '@/lib/submissions/contract';

const REPOSITORY_NAMES: Record<Repository, string> = { ena: 'ENA', zenodo: 'Zenodo' };
export const repositoryName = (r: Repository) => REPOSITORY_NAMES[r];

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });

/**
 * A day as ENA writes it (2028-11-21, 2028-11-21+00:00, or a full timestamp) as people read it: "21 Nov 2028". The
 * calendar day is kept as written, whatever the reader's zone.
 */
export function releaseDay(value: string): string {
  const day = /^(\d{4})-(\d{2})-(\d{2})/.exec(value);
  if (!day) return value;
  return dayFormat.format(new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))));
}

export type Tone = 'ok' | 'danger' | 'running' | 'waiting';

/** Where a submission stands, in one sentence: "Registering 12 samples at ENA", "Private at ENA until 21 Nov 2028". */
export function submissionSentence(s: Submission): { text: string; tone: Tone } {
  const at = repositoryName(s.repository);
  const a = s.accessions;
  if (s.kind === 'samples') {
    const n = plural(s.samples, 'sample');
    switch (s.status) {
      case 'pending':
        return { text: `Waiting to register ${n} at ${at}`, tone: 'waiting' };
      case 'processing':
        return { text: `Registering ${n} at ${at}`, tone: 'running' };
      case 'accepted':
      case 'published':
        return { text: `Registered ${n} at ${at}`, tone: 'ok' };
      case 'rejected':
        return { text: `${at} refused the registration of ${n}`, tone: 'danger' };
      case 'failed':
        return { text: `The registration of ${n} at ${at} failed`, tone: 'danger' };
    }
  }
  const publishing = s.action === 'publish';
  switch (s.status) {
    case 'pending':
      return { text: `Waiting to ${publishing ? 'publish' : 'send'} the study ${publishing ? 'at' : 'to'} ${at}`, tone: 'waiting' };
    case 'processing':
      return { text: `${publishing ? 'Publishing' : 'Sending'} the study ${publishing ? 'at' : 'to'} ${at}`, tone: 'running' };
    case 'rejected':
      return { text: `${at} refused the study`, tone: 'danger' };
    case 'failed':
      return { text: `${publishing ? 'Publishing' : 'Sending'} the study ${publishing ? 'at' : 'to'} ${at} failed`, tone: 'danger' };
    case 'published':
      return { text: a.doi ? `Published at ${at}, DOI ${a.doi}` : `Published at ${at}`, tone: 'ok' };
    case 'accepted':
      break;
  }
  if (s.repository === 'zenodo') {
    if (a.state === 'done') return { text: a.doi ? `Published at Zenodo, DOI ${a.doi}` : 'Published at Zenodo', tone: 'ok' };
    const record = a.study ?? a.deposition_id;
    return { text: `Uploaded to Zenodo as ${record ? `draft record ${record}` : 'a draft'}, not yet published`, tone: 'ok' };
  }
  if (a.state === 'PUBLIC') return { text: a.study ? `Public at ENA as ${a.study}` : 'Public at ENA', tone: 'ok' };
  if (a.state === 'PRIVATE') {
    const until = a.release_date ? ` until ${releaseDay(a.release_date)}` : '';
    return { text: `Private at ENA${until}`, tone: 'ok' };
  }
  return { text: a.study ? `Registered at ENA as ${a.study}` : 'Registered at ENA', tone: 'ok' };
}

/** One of a submission's answers, in words. */
export function receiptSentence(r: SubmissionReceipt): string {
  const what = r.objects ? ` (${r.objects})` : '';
  switch (r.kind) {
    case 'ADD':
      return `Sent to ENA${what}: ${r.success ? 'accepted' : 'refused'}${r.submission ? `, submission ${r.submission}` : ''}`;
    case 'MODIFY':
      return `Changes sent to ENA${what}: ${r.success ? 'accepted' : 'refused'}`;
    case 'RECEIPT':
      return `Asked ENA what it holds${r.alias ? ` for ${r.alias}` : ''}: ${r.success ? 'found' : 'nothing found'}`;
    case 'deposition':
      return r.deposition ? `Zenodo deposition ${r.deposition} opened` : 'Zenodo deposition opened';
    default:
      return `${r.kind}: ${r.success ? 'accepted' : 'refused'}`;
  }
}
