/** scripts/compile-hints.mjs: the first line of every portal script once marked. */
export declare const COMPILE_HINT: string;
