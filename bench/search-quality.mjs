// Search quality on the shared multi-hop question sets; the same as
// `npm run bench -- --only search-quality`, with the report saved as bench/results/<date>-search-quality.md.
//
//   node bench/search-quality.mjs [--data DIR] [--set musique|hotpotqa] [--backend sqlite|postgres] [--quick]
import { runSuite } from './lib/suite.mjs';

process.exitCode = await runSuite({ defaults: ['search-quality'], save: true, reportName: 'search-quality' });
