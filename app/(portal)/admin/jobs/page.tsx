import type { Metadata } from 'next';
import { notFound } from 'next/navigation';
import { JobsAdmin } from '@/components/admin/jobs-admin';
import { currentUser } from '@/lib/server/auth-options';

export const metadata: Metadata = { title: 'Jobs' };

export default async function JobsPage() {
  const user = await currentUser();
  if (!user?.isAdmin) notFound();
  return (
    <>
      <h1>Jobs</h1>
      <p>
        Background work: validations, registrations, submissions and emails. Work is given up when its job failed four times, its process
        died on the last run, or a repository stayed unreachable for two days; its owner sees why. Retry runs it again.
      </p>
      <JobsAdmin />
    </>
  );
}
