/** @type {import('next').NextConfig} */
const nextConfig = {
  // /api/apiKey/ and /api/apiKey are the same endpoint: no redirect (clients would re-send POST as GET)
  skipTrailingSlashRedirect: true,
  poweredByHeader: false,
  serverExternalPackages: ['@electric-sql/pglite', 'pino', 'postgres', 'swagger-ui-dist', 'exceljs', 'pg-boss'],
  typescript: { ignoreBuildErrors: false },
};

export default nextConfig;
