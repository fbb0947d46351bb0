export { giveUpRegistration, type RegistrationDeps, registerSamplesJob, runSampleRegistration } from './job';
export { ENA_SETTINGS_MISSING, queueSampleRegistration } from './queue';
