/** scripts/compress-static.mjs: writes each compressible file under `dir` beside itself as .br and .gz. */
export declare function compressStatic(dir: string): { written: number; before: number; after: number };
