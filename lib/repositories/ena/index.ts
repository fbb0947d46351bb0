export * from './types';
export * from './build';
export * from './tol-sample';
export * from './receipt';
export * from './client';
