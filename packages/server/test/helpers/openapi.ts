// Reading the served OpenAPI document the way a validating proxy does: its operations, and a
// JSON Schema 2020-12 validator over its components (OpenAPI 3.1 schemas are 2020-12).
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

const addFormats = addFormatsModule.default;
const DOCUMENT_ID = 'https://snapgraph.invalid/openapi.json';
const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

export interface Operation {
  method: string;
  path: string;
  operation: any;
}

export function operationsOf(doc: any): Operation[] {
  return Object.entries<any>(doc.paths ?? {}).flatMap(([path, item]) =>
    METHODS.filter((method) => item[method]).map((method) => ({ method, path, operation: item[method] })),
  );
}

export interface DocumentValidator {
  /** Problems of `value` against the schema at `pointer` (`#/components/schemas/Snapshot`). */
  check(pointer: string, value: unknown): string[];
  /** Problems of a response body against what the document declares for it. */
  checkResponse(path: string, method: string, status: number, body: unknown): string[];
  /** Every example in the document checked against the schema it illustrates. */
  checkExamples(): { count: number; failures: string[] };
}

const escape = (part: string) => part.replaceAll('~', '~0').replaceAll('/', '~1');

export function documentValidator(doc: any): DocumentValidator {
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true, validateFormats: true }));
  ajv.addSchema({ ...doc, $id: DOCUMENT_ID });

  const compiled = new Map<string, ReturnType<typeof ajv.compile>>();
  const check = (pointer: string, value: unknown): string[] => {
    let validate = compiled.get(pointer);
    if (!validate) {
      validate = ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      compiled.set(pointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message}`);
  };

  const resolve = (node: any): any => {
    let current = node;
    for (let hops = 0; current?.$ref && hops < 10; hops++) {
      current = current.$ref
        .slice(2)
        .split('/')
        .reduce((at: any, part: string) => at?.[part.replaceAll('~1', '/').replaceAll('~0', '~')], doc);
    }
    return current;
  };

  const responsePointer = (path: string, method: string, status: number): string => {
    const response = doc.paths?.[path]?.[method]?.responses?.[String(status)];
    if (!response) throw new Error(`${method.toUpperCase()} ${path} does not declare ${status}`);
    if (response.$ref) return `${response.$ref.slice(1)}/content/application~1json/schema`;
    return `/paths/${escape(path)}/${method}/responses/${status}/content/application~1json/schema`;
  };

  const checkExamples = () => {
    const failures: string[] = [];
    let count = 0;
    const test = (schemaPointer: string, value: unknown, where: string) => {
      count += 1;
      for (const problem of check(`#${schemaPointer}`, value)) failures.push(`${where}: ${problem}`);
    };
    /** Media types, parameters and headers carry `example`/`examples` beside their `schema`. */
    const withSchema = (node: any, pointer: string) => {
      if (!node?.schema) return;
      if (node.example !== undefined) test(`${pointer}/schema`, node.example, pointer);
      for (const [name, example] of Object.entries<any>(node.examples ?? {})) {
        test(`${pointer}/schema`, resolve(example).value, `${pointer}/examples/${name}`);
      }
    };
    /** Schemas carry JSON Schema `examples`, an array. */
    const schemaExamples = (node: any, pointer: string) => {
      if (typeof node !== 'object' || node === null) return;
      if (Array.isArray(node.examples)) node.examples.forEach((value: unknown) => test(pointer, value, pointer));
      for (const [key, value] of Object.entries<any>(node)) {
        if (key !== 'examples') schemaExamples(value, `${pointer}/${escape(key)}`);
      }
    };
    const walk = (node: any, pointer: string) => {
      if (typeof node !== 'object' || node === null) return;
      withSchema(node, pointer);
      for (const [key, value] of Object.entries<any>(node)) {
        if (key === 'schema') schemaExamples(value, `${pointer}/schema`);
        else if (key !== 'examples') walk(value, `${pointer}/${escape(key)}`);
      }
    };
    walk(doc.paths, '/paths');
    walk(doc.components?.responses, '/components/responses');
    walk(doc.components?.headers, '/components/headers');
    schemaExamples(doc.components?.schemas, '/components/schemas');
    return { count, failures };
  };

  return {
    check,
    checkResponse: (path, method, status, body) => check(`#${responsePointer(path, method, status)}`, body),
    checkExamples,
  };
}
