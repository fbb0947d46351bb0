'use client';

import { useMutation } from '@tanstack/react-query';
import { foundPages } from '@/components/ui/api-pages';
import { DataTable } from '@/components/ui/data-table';
import { MutationOutcome } from '@/components/ui/mutation-outcome';
import { Section } from '@/components/ui/section';
import { usePagedList } from '@/components/ui/use-paged-list';
import { plural } from '@/components/ui/words';
import type { BarcodeSubmitAnswer } from '@/lib/barcodes/contract';
import { api } from '@/lib/client/api';
import { AddBarcodes } from './add-barcodes';
import { barcodeTable, running } from './barcode-table';
import styles from './barcodes.module.css';

/**
 * A Tree of Life profile's DNA barcodes (lib/barcodes): the list with where each stands at ENA, and for who may add to
 * the profile the barcoding sheet's upload (checked in the request: its problems are shown here, cell by cell) and
 * "Send to ENA". ENA takes barcodes only through Webin-CLI, which the service runs; the list follows them meanwhile.
 */

const PAGE = 50;
// the list's page lives in the URL under its own name: the profile's page holds other paged lists
const OFFSET_PARAM = 'barcodes';

function submittedWords(a: BarcodeSubmitAnswer): string {
  const sent = a.submissions.reduce((n, s) => n + s.barcodes, 0);
  if (sent)
    return `${plural(sent, 'barcode')} on the way to ENA, in ${plural(a.submissions.length, 'submission')}; this list follows them.`;
  if (a.waiting) return `${plural(a.waiting, 'barcode')} waiting for ENA${a.detail ? `: ${a.detail}` : '.'}`;
  return 'No barcode was waiting to be sent.';
}

/** `contributes`: the caller may add to the profile; a viewer sees the list only. */
export function BarcodesSection({ profileId, contributes }: { profileId: string; contributes: boolean }) {
  // a value of its own: written inside the list's options, its page's type would be inferred from the list's, rows unknown
  const pages = foundPages((page) =>
    api.GET('/api/profiles/{profile_id}/barcodes', { params: { path: { profile_id: profileId }, query: page } }),
  );
  const list = usePagedList({
    key: ['barcodes', profileId],
    limit: PAGE,
    param: OFFSET_PARAM,
    fetch: pages,
    // a submission ends by itself: follow it until Webin-CLI has answered
    refetchInterval: (page) => (page?.rows.some(running) ? 3000 : false),
  });
  const send = useMutation({
    mutationFn: () => api.POST('/api/profiles/{profile_id}/barcodes/action/submit', { params: { path: { profile_id: profileId } } }),
    onSettled: () => list.refresh(),
  });
  const any = list.page.total > 0;

  return (
    <Section id="barcodes" anchor title="Barcodes">
      <p>
        DNA barcodes of the profile’s specimens (COI barcodes, rRNA genes), sent to ENA as annotated sequences, each with where it stands.
      </p>
      <DataTable
        caption="DNA barcodes of this profile, newest first"
        table={barcodeTable}
        {...list}
        empty={contributes ? 'No barcodes yet: add the barcoding sheet below.' : 'No barcodes yet.'}
      />
      {contributes && any && (
        <div className={styles.send}>
          <button type="button" className="primary" disabled={send.isPending} onClick={() => send.mutate()}>
            {send.isPending ? 'Sending…' : 'Send to ENA'}
          </button>
          <span className="muted">Sends the barcodes not yet at ENA, and those it rejected, once they are corrected.</span>
        </div>
      )}
      {contributes && <MutationOutcome mutation={send} done={submittedWords} failed={(message) => `Nothing was sent: ${message}`} />}
      {contributes ? (
        <AddBarcodes profileId={profileId} onStored={list.refresh} />
      ) : (
        <p className="muted">The profile is shared with you as a viewer: its owner can make you a contributor to add barcodes.</p>
      )}
    </Section>
  );
}
