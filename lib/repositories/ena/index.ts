export * from './build';
export * from './client';
export * from './platforms';
export * from './receipt';
export * from './samples';
export * from './tol-sample';
export * from './types';
export * from './upload-area';
