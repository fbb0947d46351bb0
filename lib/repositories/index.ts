export * from './ena';
export * from './errors';
export * from './http';
export * from './taxonomy';
export * from './zenodo';
