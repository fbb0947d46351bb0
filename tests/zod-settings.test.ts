import { describe, expect, it } from 'vitest';

// instrumentation-client.ts turns zod's compiled parsers off in the browser through zod's shared settings global,
// without loading zod on every page: this holds that zod still keeps its settings there
describe('zod’s settings', () => {
  it('are the global instrumentation-client.ts sets', async () => {
    const { z } = await import('zod');
    const shared = globalThis as { __zod_globalConfig?: object };
    expect(shared.__zod_globalConfig).toBeDefined();
    expect(z.config()).toBe(shared.__zod_globalConfig);
  });
});
