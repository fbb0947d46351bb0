import { pathToFileURL } from 'node:url';
import { buildTaxonRecords } from '../tests/fixtures/manifests/taxa';
import { type ResumeOutcome, resumeAfterCrash } from '../tests/support/registration-resume';
import { startRepositoryServer } from '../tests/support/repository-server';
import { scratchDatabase } from './databases';
import { buildService } from './processes';

/**
 * A registration of `samples` DTOL samples killed after ENA answered and before the answer was kept, resumed by a
 * new process (issue 27): how long the resume took and how many Webin calls it made, against the Webin stand-in.
 */
export async function benchRegistrationResume(samples = 2_000, serverUrl = process.env.BENCH_DATABASE_URL): Promise<ResumeOutcome> {
  const server = await startRepositoryServer({ taxa: buildTaxonRecords().records });
  // on PostgreSQL (a server URL), a database of its own, dropped afterwards; else the embedded database
  const database = serverUrl ? await scratchDatabase(serverUrl, 'rmb_bench_resume_') : undefined;
  try {
    return await resumeAfterCrash(server, { samples, databaseUrl: database?.url, serviceBundle: buildService('bench-resume') });
  } finally {
    await server.close();
    await database?.drop();
  }
}

export function formatRegistrationResumeBench(r: ResumeOutcome): string {
  const refused = r.submissionCalls.filter((c) => !c.success).length;
  return [
    `registration-resume: ${r.samples} DTOL samples on ${r.database}, killed after ENA answered their ADD, resumed by a new process`,
    `  resume              ${(r.resumeMs / 1000).toFixed(2)} s (restart to registration ${r.status}; answering after ${(r.upMs / 1000).toFixed(2)} s, first Webin call after ${(r.firstCallMs / 1000).toFixed(2)} s)`,
    `  Webin calls         ${r.webinCalls} (${r.submissionCalls.length} submission(s), ${refused} refused; ${r.reportCalls.length} sample reports, at most ${Math.max(0, ...r.reportCalls)} accessions each, ${r.reportCalls.reduce((a, b) => a + b, 0)} in all)`,
    `  per 100 samples     ${((r.webinCalls / r.samples) * 100).toFixed(2)} calls`,
    `  samples accepted    ${r.accepted}, ${r.distinctBiosamples} distinct BioSample accessions; each ADD applied ${[...new Set(r.appliedAddsPerSample)].join('/')} time(s)`,
    `  answers recorded    ${r.receipts}`,
  ].join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const n = process.env.RESUME_SAMPLES ? Number(process.env.RESUME_SAMPLES) : undefined;
  console.log(formatRegistrationResumeBench(await benchRegistrationResume(n)));
}
