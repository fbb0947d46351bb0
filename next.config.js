/** @type {import('next').NextConfig} */
const nextConfig = {
  // /api/apiKey/ and /api/apiKey are the same endpoint: no redirect (clients would re-send POST as GET)
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  // the production server compresses the pages itself, with brotli where the browser takes it (server/compressed-pages.ts)
  compress: false,
  // loaded by Node at run time rather than bundled: native or worker code, files read beside the package, and
  // rate-limiter-flexible, whose Drizzle store imports drizzle-orm by a computed name that a bundler cannot follow
  serverExternalPackages: [
    '@electric-sql/pglite',
    'pino',
    'postgres',
    'swagger-ui-dist',
    'exceljs',
    'pg-boss',
    'rate-limiter-flexible',
    'drizzle-orm',
    'nodemailer',
    'basic-ftp',
    'yauzl',
  ],
  typescript: { ignoreBuildErrors: false },
  experimental: {
    // the stylesheets come inside the page's HTML: the first paint needs no second request, and comes before the
    // scripts run, so a phone shows the page's text while React hydrates it (docs/benchmarks.md, "Portal pages")
    inlineCss: true,
  },
};

export default nextConfig;
