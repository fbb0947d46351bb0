import { benchManifestValidate, formatManifestBench } from './manifest-validate';
import { benchQuery, formatQueryBench } from './query';

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
];

for (const b of benchmarks) {
  console.log(await b.run());
}
