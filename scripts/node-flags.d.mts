/** scripts/node-flags.mjs, for the TypeScript that starts the service (bench/http.ts). */
export declare const SERVICE_NODE_FLAGS: readonly string[];
