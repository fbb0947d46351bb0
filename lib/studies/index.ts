/** The studies domain, for the routes and for the submission workers. */
export * from './accessions';
export * from './jsonld';
export * from './status';
export * from './studies';
export * from './upload';
export * from './validate';
export * from './write';
