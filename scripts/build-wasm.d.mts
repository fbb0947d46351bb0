/** scripts/build-wasm.mjs, for the test that holds the committed module to its source (tests/field-copier.test.ts). */
export declare function compileFieldCopier(): Promise<Buffer>;
export declare const fieldCopierSource: (bytes: Buffer) => string;
