export { registerSamplesJob, runSampleRegistration } from './job';
export { queueSampleRegistration } from './queue';
