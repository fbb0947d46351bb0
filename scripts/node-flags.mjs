/**
 * The V8 flags the service runs with (`npm start`, `npm run start:api`, and the benchmarks, which measure what users
 * run).
 *
 * - A young generation of 32 MiB instead of 16: a 500-sample list allocates about 8 MB (its rows and their JSON),
 *   and with 16 MiB much of that outlived a scavenge and went to the old generation; the lists answered about 10%
 *   faster in bench:http, for some 25 MB more memory at peak.
 * - The old generation grows by 25% of what was live after a full collection before the next one, instead of V8's
 *   own factor of up to 4: under 50 connections of list reads the requests in flight outlive scavenges, and V8 let
 *   the old generation swell to 266 MB used (RSS +215 MB) for about 90 MB live; with 25% it stayed at 89 MB (RSS
 *   +62 MB), at the same requests per second (bench/memory.ts, PostgreSQL, 40 s: 2,033 and 1,995 requests). The cost
 *   is more frequent full collections, which bench:http's throughput rows measure.
 */
export const SERVICE_NODE_FLAGS = ['--max-semi-space-size=32', '--heap-growing-percent=25'];
