export { giveUpRegistration, type RegistrationDeps, runSampleRegistration } from './job';
export { ENA_SETTINGS_MISSING, queueSampleRegistration } from './queue';
