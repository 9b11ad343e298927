import { fileURLToPath } from 'node:url';
import { assertLangchainOutput, readmeSuite } from './readme.js';

readmeSuite(fileURLToPath(new URL('..', import.meta.url)), assertLangchainOutput);
