/** scripts/node-flags.mjs, for the TypeScript that starts the service (bench/http.ts, bench/memory.ts). */
export declare const SERVICE_NODE_FLAGS: readonly string[];
export declare const SERVICE_ENV: Readonly<Record<string, string>>;
export declare const SERVICE_ENV_TEXT: string;
