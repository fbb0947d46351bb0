import { benchManifestValidate, formatManifestBench } from './manifest-validate';

/** Every benchmark in bench/, one after the other (`npm run bench`). */
const benchmarks: { name: string; run: () => Promise<string> }[] = [
  { name: 'manifest-validate', run: async () => formatManifestBench(await benchManifestValidate()) },
];

for (const b of benchmarks) {
  console.log(await b.run());
}
