import { getRuntime } from '@/lib/server/runtime';
import { serveService } from './http';

/**
 * The API and the job workers without the portal (`npm run start:api`): for hosts that only run jobs or serve
 * scripts and pipelines, and for the crash and two-instance tests, which start and kill it as a process.
 */
const port = Number(process.env.PORT ?? 3000);

getRuntime()
  .then((runtime) => serveService(runtime, { port }))
  .catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
