export * from './users';
export * from './profiles';
export * from './checklists';
export * from './manifests';
export * from './samples';
export * from './studies';
export * from './submissions';
