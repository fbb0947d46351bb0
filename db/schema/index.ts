export * from './users';
export * from './profiles';
export * from './checklists';
