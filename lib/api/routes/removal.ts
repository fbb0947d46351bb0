import { isBiodataSample } from '@/lib/biodata-samples/read';
import { UploadParamsSchema } from '@/lib/files/contract';
import { SamplePermitsParamsSchema } from '@/lib/permits/contract';
import { ProfileParamsSchema } from '@/lib/profiles/contract';
import { deleteBiodataSample } from '@/lib/removal/biodata-samples';
import { deleteDataFile } from '@/lib/removal/data-files';
import { deleteProfile } from '@/lib/removal/profiles';
import { deleteReport } from '@/lib/removal/reports';
import { deleteSample } from '@/lib/removal/samples';
import { deleteStudy } from '@/lib/removal/studies';
import { ReportIdParamsSchema } from '@/lib/reports/contract';
import { StudyParamsSchema } from '@/lib/studies/contract';
import type { ApiApp } from '../context';
import { openapiConstrained, PATH_PATTERNS } from '../openapi';
import { route } from '../policy';
import { pick, problemResponses } from '../schemas';
import { studyPathPatterns } from './studies';

/**
 * Removal of what never went public: a sample, a validation report, a data file, a study or a whole profile. Only
 * the profile's owner and admins may; anyone else is answered as for an unknown id. Each removal is one
 * transaction with its audit event (`audit_events`); anything that reached a public archive, or is on its way
 * there, is refused with 409 saying what and why, and nothing changes.
 */

const deleted = { 204: { description: 'Deleted, with an audit event naming what went' } };
const refused = {
  409: { ...problemResponses[409], description: 'It reached a public archive, is on its way there, or is in use: `detail` says which' },
};
const RULE = 'What reached a public archive (an accession, an accepted submission) or is on its way there is never deleted.';

const sample = route(
  {
    method: 'delete',
    path: '/sample/{svc_id}',
    tags: ['Samples'],
    summary: 'Delete a sample that never reached ENA',
    description:
      `${RULE} A sample that is accepted, being sent, queued for registration or in a registration under way is 409. ` +
      'Its audit rows go with it; so do its specimen record, once no sample of any profile comes from the specimen ' +
      'and ENA does not hold it, and its manifest (with its permits and the reports confirmed into it) once its last ' +
      'sample goes. A biodata profile’s sample (registered against an ENA sample checklist) goes with its history ' +
      'when it is confirmed or ENA refused it.',
    request: { params: SamplePermitsParamsSchema },
    responses: { ...deleted, ...pick(401, 403, 404), ...refused },
  },
  { access: { profile: 'contribute', of: 'sample' } },
);

const report = route(
  {
    method: 'delete',
    path: '/manifest/validate/report/{report_id}',
    tags: ['Manifest validation'],
    summary: 'Delete a validation report that was not confirmed',
    description:
      'The report, its stored rows and the permit PDFs uploaded for it go. A report still being validated is deleted ' +
      'too: its validation ends without writing. A confirmed report is 409: it goes with its manifest’s last sample.',
    request: { params: ReportIdParamsSchema },
    responses: { ...deleted, ...pick(401, 403, 404), ...refused },
  },
  { access: { profile: 'contribute', of: 'report' } },
);

const file = route(
  {
    method: 'delete',
    path: '/profiles/{profile_id}/files/{file_name}',
    tags: ['Profiles'],
    summary: 'Delete a data file no study uses',
    description:
      'The file’s record and its stored bytes (local storage or S3) go. A file a study of the profile names, or one a ' +
      'submission sent, is 409. The name may contain `/`. 503 when the storage cannot remove it: nothing changed.',
    request: { params: UploadParamsSchema },
    responses: { ...deleted, ...pick(400, 401, 403, 404, 503), ...refused },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const study = route(
  {
    method: 'delete',
    path: '/profiles/{profile_id}/schema/{schema_name}/studies/{study_id}',
    tags: ['Studies'],
    summary: 'Delete a study that was never submitted',
    description: `${RULE} A study with a submission queued, running, accepted or published, or with an accession, is 409; its rejected or failed submissions go with it.`,
    request: { params: StudyParamsSchema },
    responses: { ...deleted, ...pick(401, 403, 404), ...refused },
  },
  { access: { profile: 'contribute', in: 'profile_id' } },
);

const profile = route(
  {
    method: 'delete',
    path: '/profiles/{profile_id}',
    tags: ['Profiles'],
    summary: 'Delete a profile and everything it holds',
    description:
      `${RULE} A profile with a registered sample or specimen, or a sample, study or submission on its way to a ` +
      'repository, is 409. Otherwise its samples (with their audit rows), specimen records, manifests, validation ' +
      'reports, permits, studies, data files and their stored bytes go, in one transaction, each with an audit event.',
    request: { params: ProfileParamsSchema },
    responses: { ...deleted, ...pick(401, 403, 404), ...refused },
  },
  { access: { profile: 'own', in: 'profile_id' } },
);

// a svc_id in either case, as the other sample routes take it; the literal siblings (sample/pending…) are no svc_id
const svcIdPattern = { svc_id: '[0-9a-fA-F]{24}' };
const profileIdPattern = { profile_id: PATH_PATTERNS.profile_id };

export function registerRemovalRoutes(app: ApiApp) {
  openapiConstrained(app, sample, svcIdPattern, async (c) => {
    const { svc_id } = c.req.valid('param');
    const deps = c.get('deps');
    // a biodata profile's sample (lib/biodata-samples) is kept apart from the Tree of Life's
    if (await isBiodataSample(deps.db, svc_id)) await deleteBiodataSample(deps.db, c.get('user'), svc_id);
    else await deleteSample(deps, c.get('user'), svc_id);
    return c.body(null, 204);
  });
  app.openapi(report, async (c) => {
    await deleteReport(c.get('deps').db, c.get('user'), c.req.valid('param').report_id);
    return c.body(null, 204);
  });
  // the name may span several segments (`dir/b.fastq.gz`), so the last parameter takes the rest of the path
  openapiConstrained(app, file, { ...profileIdPattern, file_name: '.+' }, async (c) => {
    const { profile_id, file_name } = c.req.valid('param');
    await deleteDataFile(c.get('deps'), c.get('user'), profile_id, file_name);
    return c.body(null, 204);
  });
  openapiConstrained(app, study, studyPathPatterns, async (c) => {
    const { profile_id, schema_name, study_id } = c.req.valid('param');
    await deleteStudy(c.get('deps').db, c.get('user'), { profileId: profile_id, schemaName: schema_name, studyId: study_id });
    return c.body(null, 204);
  });
  openapiConstrained(app, profile, profileIdPattern, async (c) => {
    await deleteProfile(c.get('deps'), c.get('user'), c.req.valid('param').profile_id);
    return c.body(null, 204);
  });
}
