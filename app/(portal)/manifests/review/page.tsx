import type { Metadata } from 'next';
import Link from 'next/link';
import { manifestImagesKey } from '@/components/images/images-query';
import {
  OFFSET_PARAM,
  offsetOf,
  PRIVATE_OFFSET,
  PRIVATE_PAGE,
  privateSamplesKey,
  type ReviewState,
  reviewKey,
  reviewQuery,
} from '@/components/manifests/review-query';
import { ReviewQueue } from '@/components/manifests/review-queue';
import { EnaRefusals } from '@/components/submissions/ena-refusals';
import { REFUSALS_KEY, REFUSALS_PAGE } from '@/components/submissions/refusals-query';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { UrlChecked } from '@/components/ui/url-check';
import { checkUrl } from '@/lib/browse/url-check';
import { paramsObject, searchOf } from '@/lib/client/search';
import { config } from '@/lib/config';
import { manifestImagesAnswer } from '@/lib/images/read';
import { localContextsProjectPage } from '@/lib/repositories/local-contexts';
import { privateForManager } from '@/lib/samples/private';
import { reviewQueue } from '@/lib/samples/review';
import { REVIEW_FILTERS, ReviewFilterSchema } from '@/lib/samples/review-contract';
import { pageData } from '@/lib/server/page-data';
import { enaRefusals } from '@/lib/submissions/refusals';

export const metadata: Metadata = { title: 'Review queue' };

type Search = Record<string, string | string[] | undefined>;

export default async function ReviewPage({ searchParams }: { searchParams: Promise<Search> }) {
  const search = searchOf(await searchParams);
  const input = paramsObject(search, REVIEW_FILTERS);
  // the URL's order and filters checked as the API checks them, for the lists below (useReviewFilter)
  const parsed = checkUrl(ReviewFilterSchema, input);
  // both lists' first pages come with the page (the filter's choices are read from both), and the thumbnails of their
  // manifests' images, the registrations ENA refused and the private samples, so that it is drawn whole and nothing
  // is pushed down once loaded; a link whose filter is not valid is said by the lists themselves
  const { answers } = await pageData(async (db, user) => {
    const hub = { projectPage: (id: string) => localContextsProjectPage(config().LOCAL_CONTEXTS_URL, id) };
    const privateOffset = offsetOf(search, PRIVATE_OFFSET);
    const aside = [
      [REFUSALS_KEY, asSent(await enaRefusals(db, user, REFUSALS_PAGE))],
      [privateSamplesKey(privateOffset), asSent(await privateForManager(db, user, hub, { limit: PRIVATE_PAGE, offset: privateOffset }))],
    ] as const;
    if (!parsed.success) return { answers: aside };
    const lists = await Promise.all(
      (['awaiting', 'decided'] as const).map(async (state: ReviewState) => {
        const offset = offsetOf(search, OFFSET_PARAM[state]);
        return [reviewKey(state, offset, input), asSent(await reviewQueue(db, user, reviewQuery(parsed.data, state, offset)))] as const;
      }),
    );
    const manifestIds = [...new Set(lists.flatMap(([, list]) => list.data.map((group) => group.manifest_id)))];
    const images = await Promise.all(
      manifestIds.map(async (id) => [manifestImagesKey(id), asSent(await manifestImagesAnswer(db, config(), user, id))] as const),
    );
    return { answers: [...aside, ...lists, ...images] };
  });
  return (
    <>
      <h1>Review queue</h1>
      <p className="muted">
        Samples waiting for your approval, grouped by the manifest that brought them. A sample waits for an approver of each of its
        associated types that needs approval (a project’s sample managers approve its own type, DTOL or ASG); once all have accepted, it
        gets a ToLID and is registered at ENA. The reason of a rejection is shown to the uploader, never in the public API.
      </p>
      <p>
        A sample already registered needs a change?{' '}
        <Link href="/manifests/review/corrections">Correct registered samples by accession</Link>.
      </p>
      <Prefetched answers={answers}>
        <EnaRefusals />
        <UrlChecked check={parsed}>
          <ReviewQueue />
        </UrlChecked>
      </Prefetched>
    </>
  );
}
