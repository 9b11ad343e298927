// Writes src/generated/openapi.ts from the server's served OpenAPI document.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { GENERATED_TYPES, generatedTypesText } from './openapi-source.js';

writeFileSync(GENERATED_TYPES, await generatedTypesText());
console.log(`wrote ${fileURLToPath(GENERATED_TYPES)}`);
