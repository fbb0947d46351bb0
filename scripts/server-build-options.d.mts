import type { BuildOptions } from 'esbuild';

/** scripts/server-build-options.mjs, for the TypeScript that builds variants of the service (bench/measures.ts). */
export declare const serverBuildOptions: (entryPoints: Record<string, string>, outdir: string) => BuildOptions;
