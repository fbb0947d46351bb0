export * from './errors';
export * from './http';
export * from './ena';
export * from './zenodo';
export * from './taxonomy';
