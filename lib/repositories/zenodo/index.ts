export * from './types';
export * from './client';
