/**
 * The V8 flags the service runs with (`npm start`, `npm run start:api`, and the benchmarks, which measure what users
 * run).
 *
 * - A young generation of 32 MiB instead of 16: a 500-sample list allocates about 8 MB (its rows and their JSON),
 *   and with 16 MiB much of that outlived a scavenge and went to the old generation; the lists answered about 10%
 *   faster in bench:http, for some 25 MB more memory at peak.
 * - The old generation grows by 40% of what was live after a full collection before the next one, instead of V8's
 *   own factor of up to 4: under 50 connections of list reads the requests in flight outlive scavenges, and V8 let
 *   the old generation swell to 266 MB used (RSS +215 MB) for about 90 MB live; with 25% it stayed at 89 MB (RSS
 *   +62 MB), at the same requests per second (bench/memory.ts, PostgreSQL, 40 s: 2,033 and 1,995 requests).
 *   25% cost exports and lists a full collection every few batches: a 400,000-sample CSV export (PostgreSQL, 1,000,000
 *   samples) ran 62-83 of them, 1.2-1.8 s of its 10-11 s, at 35,000-39,000 rows/s; with 40%, 38 and 43,000 rows/s,
 *   and 300 one-at-a-time 500-sample lists 12 instead of 23. What 40% costs in memory (bench/memory.ts, PostgreSQL):
 *   the 50-connection read mix peaked at +66 MB (+74 MB with 25%; goal +100 MB), the 1,000,000-empty-row workbook
 *   at +152 MB (goal +256 MB). 50% went over the read mix's goal once (+112 MB).
 * - The old generation's limit never falls below 128 MB (`--initial-old-space-size`, which V8 keeps as the floor of
 *   the limit it computes after each full collection). With a 32 MiB young generation and some 45 MB live at rest
 *   (the service's code and modules), V8 started marking the old generation again with 47-50 MB of room left under
 *   a limit of 93 MB, right after the collection before (`--trace-incremental-marking`): a full collection every 5-8
 *   one-at-a-time 500-sample lists (72 in 600), each 20-30 ms of marking on the request's thread and ~100 ms on the
 *   other core. With the floor, 16 in 600 (a floor of 256 MB left 14: V8 then marked for the buffers the sockets
 *   read and write, its "external memory pressure"), the lists' p90 32-39 → 17-20 ms, their median 14.3-15.2 →
 *   12.6-14.4 ms. What it costs (bench/memory.ts, PostgreSQL, one run each): the idle service holds ~30 MB more
 *   (223 → 254 MB); the read mix peaked at +50 MB (+71 MB without), serving 4% more requests; the
 *   1,000,000-empty-row workbook at +192 MB (+61 MB without; goal +256 MB), its garbage left for longer.
 * - No allocation-site pretenuring (`--no-allocation-site-pretenuring`). V8 counts, per place in the code that makes
 *   objects, how many of them outlive a scavenge, and once nearly all have, makes that place's objects in the old
 *   generation from then on. A request's objects die with it, but a few live through each scavenge, those in flight,
 *   and V8 took seven of a look-up's places for long-lived (`--trace-pretenuring`: 363-403 of 363-403 objects found
 *   alive, three scavenges running). Their objects, dead as soon as made but in the old generation, then kept what
 *   they pointed at in the young one alive through each scavenge, which promoted it: 1.4 MB a scavenge (~4 kB a
 *   look-up), scavenges of 4-10 ms instead of 2-3, and a full collection every few thousand look-ups. Without it
 *   (bench:http's machine, sample/svc_id, taking turns with the same build, three rounds): 88-127 kB promoted a
 *   scavenge, the service's CPU a sequential look-up 365-410 -> 352-355 µs, at 50 connections 55,000-57,000 ->
 *   60,000-63,000 requests in 10 s; a one-day list no slower (CPU 14-16 ms against 15-18 a request).
 */
export const SERVICE_NODE_FLAGS = [
  '--max-semi-space-size=32',
  '--heap-growing-percent=40',
  '--initial-old-space-size=128',
  '--no-allocation-site-pretenuring',
];

/**
 * The C allocator's settings the service runs with (glibc reads them from the environment at start): buffers up to
 * 4 MiB come from its heap, and up to 32 MiB free at the heap's top are kept there, instead of glibc's defaults,
 * under which it moves both thresholds as the process runs. A whole answer (a list of one batch) is copied
 * into one buffer to be sent (lib/api/formats.ts bodyOf), 1.4 MB for a 500-sample manifest. On a fresh service that
 * buffer came back from the heap at each request; after 20,000 one-sample look-ups it was mapped fresh from the
 * system each time and its pages faulted in as they were written (bench:http's machine, PostgreSQL, 1,000,000
 * samples, `manifest/{id}` one request at a time): 28 -> 311-325 page faults a request, the service's CPU 7.8 ->
 * 13.9-17.4 ms a request, its p50 9.6 -> 15.5-22.2 ms; with these settings, 7-8 faults, 7.6-8.2 ms of CPU, p50
 * 10.9-11.1 ms, RSS ~10 MB more. In bench:http the lists ran after some 20,000 look-ups, and the manifest list and
 * the one-day list read 1.48-1.67 on that machine (pooled 1.58-1.82) against 0.8-1.1 measured alone. `npm start`
 * keeps a value already in its environment (scripts/start.mjs); the benchmarks set these, as they measure what
 * `npm start` runs.
 */
export const SERVICE_ENV = {
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(32 * 1024 * 1024),
};

/** SERVICE_ENV as a shell would set it, for the benchmarks' reports */
export const SERVICE_ENV_TEXT = Object.entries(SERVICE_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');
