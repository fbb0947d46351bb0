/**
 * The V8 flags the service runs with (`npm start`, `npm run start:api`, and the benchmarks, which measure what users
 * run). Why each, in short; the figures that justified them are in docs/benchmarks.md ("Why the special measures are
 * there").
 *
 * - A larger young generation than V8's default: a list's rows and their JSON then die young instead of outliving a
 *   scavenge and going to the old generation, so lists answer faster for a little more memory at peak.
 * - The old generation grows by a set share of what was live instead of V8's own, much larger factor: under many
 *   connections of list reads the requests in flight outlive scavenges, and V8 let the old generation swell far past
 *   what was live; a smaller share made exports and lists pay frequent full collections, so this one is between.
 * - A floor under the old generation's limit: with little live at rest V8 computed a limit so low that it started
 *   marking again right after each collection, on the requests' thread; the floor costs some memory at rest.
 * - No allocation-site pretenuring: V8 judged some of a look-up's allocation sites long-lived from the requests in
 *   flight, and their objects, dead at once but in the old generation, kept young ones alive through every scavenge,
 *   which then promoted them; without it, look-ups cost less CPU and a busy service answers more of them.
 */
export const SERVICE_NODE_FLAGS = [
  '--max-semi-space-size=32',
  '--heap-growing-percent=40',
  '--initial-old-space-size=128',
  '--no-allocation-site-pretenuring',
];

/**
 * The C allocator's settings the service runs with (glibc reads them from the environment at start): buffers up to
 * the mmap threshold come from its heap, and free memory up to the trim threshold is kept at the heap's top, instead
 * of glibc's defaults, under which it moves both thresholds as the process runs. A whole answer (a list of one batch)
 * is copied into one buffer to be sent (lib/api/formats.ts bodyOf); with the moving thresholds, a service that had
 * answered many look-ups came to map that buffer fresh from the system at each request and fault its pages in as they
 * were written, which made lists far slower. The figures are in docs/benchmarks.md. `npm start` keeps a value already
 * in its environment (scripts/start.mjs); the benchmarks set these, as they measure what `npm start` runs.
 */
export const SERVICE_ENV = {
  MALLOC_MMAP_THRESHOLD_: String(4 * 1024 * 1024),
  MALLOC_TRIM_THRESHOLD_: String(32 * 1024 * 1024),
};

/** SERVICE_ENV as a shell would set it, for the benchmarks' reports */
export const SERVICE_ENV_TEXT = Object.entries(SERVICE_ENV)
  .map(([k, v]) => `${k}=${v}`)
  .join(' ');
