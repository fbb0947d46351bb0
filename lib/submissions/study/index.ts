/**
 * Study submissions. At request time: queue (submit), status (status and accessions) and publish, which asks the
 * repository in the request. In the `study.submit` job: job, then per repository ena (with ena-reads,
 * ena-annotations and ena-assemblies) or zenodo.
 * Both use scope (the study's targets and state), accessions (what the repositories returned) and file-progress.
 */

export { archiveStatusJob, refreshProfileArchiveStatus } from './archive-status';
export { submitStudyJob } from './job';
export { publishStudy } from './publish';
export { queueStudySubmission } from './queue';
export type { StudyClients } from './scope';
export { profileSequenceData, releasedSequenceData } from './sequence-data';
export { studyAccessions, studySubmissionStatus } from './status';
