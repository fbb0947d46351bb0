import { benchManifestValidate, formatManifestBench } from './manifest-validate';
import { benchMemory } from './memory';
import { benchQuery, formatQueryBench } from './query';
import { benchRegistrationResume, formatRegistrationResumeBench } from './registration-resume';

/** Every benchmark in bench/, one after the other (`npm run bench`). */
const benchmarks: { name: string; run: () => Promise<string> }[] = [
  { name: 'manifest-validate', run: async () => formatManifestBench(await benchManifestValidate()) },
  {
    name: 'query',
    run: async () =>
      formatQueryBench(
        await benchQuery({ url: process.env.BENCH_DATABASE_URL, samples: process.env.SAMPLES ? Number(process.env.SAMPLES) : undefined }),
      ),
  },
  {
    name: 'registration-resume',
    run: async () =>
      formatRegistrationResumeBench(
        await benchRegistrationResume(process.env.RESUME_SAMPLES ? Number(process.env.RESUME_SAMPLES) : undefined),
      ),
  },
  { name: 'memory', run: benchMemory },
];

for (const b of benchmarks) {
  console.log(await b.run());
}
