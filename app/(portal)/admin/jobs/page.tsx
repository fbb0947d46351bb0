import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { JobsAdmin } from '@/components/admin/jobs-admin';
import { JOBS_KEY, JOBS_PAGE } from '@/components/admin/jobs-query';
import { REFUSALS_KEY, REFUSALS_PAGE } from '@/components/submissions/refusals-query';
import { foundPage, pageOffset } from '@/components/ui/api-pages';
import { asSent, Prefetched } from '@/components/ui/prefetched';
import { failedJobsAnswer } from '@/lib/jobs/dead-letters';
import { currentUser } from '@/lib/server/auth-options';
import { pageData } from '@/lib/server/page-data';
import { getJobQueue } from '@/lib/server/runtime';
import { enaRefusals } from '@/lib/submissions/refusals';

export const metadata: Metadata = { title: 'Jobs' };

export default async function JobsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const user = await currentUser();
  if (!user?.isAdmin) notFound();
  const offset = pageOffset((await searchParams).offset);
  // the queue, the first page of failed jobs and the registrations ENA refused come with the page, so that it is drawn
  // whole and nothing is pushed down once loaded
  const { answers } = await pageData(async (db, u) => {
    const jobs = await getJobQueue();
    const refusals = [REFUSALS_KEY, asSent(await enaRefusals(db, u, REFUSALS_PAGE))] as const;
    if (!Number.isSafeInteger(offset)) return { answers: [refusals] };
    const failed = await failedJobsAnswer({ db, jobs }, { limit: JOBS_PAGE, offset });
    return { answers: [refusals, [[...JOBS_KEY, offset], asSent(foundPage(failed))] as const] };
  });
  return (
    <>
      <h1>Jobs</h1>
      <p>
        Background work: validations, registrations, submissions and emails. Work is given up when its job failed four times, its process
        died on the last run, or a repository stayed unreachable for two days; its owner sees why. Retry runs it again.
      </p>
      <Prefetched answers={answers}>
        <JobsAdmin />
      </Prefetched>
    </>
  );
}
