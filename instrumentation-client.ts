// Runs in the browser before the portal's code. The pages' Content-Security-Policy allows no eval
// (lib/security-headers.ts): zod would compile its object parsers with `new Function`, and the browser refuses its
// probe for that and logs a CSP issue on every page that parses a schema. Parsing without it needs no eval.
// zod keeps its settings on this global, shared by every copy of it; set here, no page loads zod for it
// (tests/zod-settings.test.ts holds that zod reads it).
const shared = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
shared.__zod_globalConfig ??= {};
shared.__zod_globalConfig.jitless = true;
