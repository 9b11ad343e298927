import { fileURLToPath } from 'node:url';
import { assertAiSdkOutput, readmeSuite } from '../../langchain/test/readme.js';

readmeSuite(fileURLToPath(new URL('..', import.meta.url)), assertAiSdkOutput);
