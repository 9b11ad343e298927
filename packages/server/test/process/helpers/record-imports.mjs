// Loaded with `--import` into a CLI process under test: appends every module the process
// resolves to the file named by RECORD_IMPORTS_TO, one URL a line (cli-start.test.ts).
import { register } from 'node:module';

register('./record-imports-hooks.mjs', import.meta.url, { data: { file: process.env.RECORD_IMPORTS_TO } });
