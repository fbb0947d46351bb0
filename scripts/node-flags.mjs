/**
 * The V8 flags the service runs with (`npm start`, `npm run start:api`, and the benchmarks, which measure what users
 * run). A young generation of 32 MiB instead of 16: a 500-sample list allocates about 8 MB (its rows and their JSON),
 * and with 16 MiB much of that outlived a scavenge and went to the old generation; the lists answered about 10% faster
 * in bench:http, for some 25 MB more memory at peak.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32'];
