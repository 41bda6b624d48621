import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * A fixture of `../schemas/` (JSON Schema generated from a platform's types as an npm package publishes them, see
 * the README there): its source, and validators of its definitions, each compiled once per process however many
 * others refer to it. `form`: the values came as a form's text, read as the types the schema names.
 */
export interface Fixture {
  source: { package: string; version: string; license: string };
  has(name: string): boolean;
  /** A definition's properties (for a definition that is an object, or refers to one). */
  properties(name: string): Record<string, { type?: unknown }>;
  /** Compiles a schema that refers to definitions as `{ $ref: fixture.ref(name) }`. */
  compile(schema: object, form?: boolean): ValidateFunction;
  ref(name: string): string;
}

export type Definitions = Record<string, { $ref?: string; properties?: Record<string, { type?: unknown }>; required?: string[] }>;

/** `adjust`: the checker's allowed deviations from the source, made on the definitions before anything is compiled. */
export function loadFixture(file: string, adjust?: (definitions: Definitions) => void): Fixture {
  const { source, definitions } = JSON.parse(readFileSync(new URL(`../schemas/${file}`, import.meta.url), 'utf8')) as { source: Fixture['source']; definitions: Definitions };
  adjust?.(definitions);
  const id = `https://schemas.invalid/${file}`;
  const document = { $id: id, definitions };
  const options = { strict: false, validateSchema: false, validateFormats: false, inlineRefs: false, allErrors: false } as const;
  const ajv = new Ajv(options);
  const formAjv = new Ajv({ ...options, coerceTypes: true });
  ajv.addSchema(document);
  formAjv.addSchema(structuredClone(document));
  const ref = (name: string) => `${id}#/definitions/${encodeURIComponent(name)}`;
  const resolve = (name: string): Definitions[string] | undefined => {
    const found = definitions[name];
    return found?.$ref ? resolve(decodeURIComponent(found.$ref.replace('#/definitions/', ''))) : found;
  };
  return {
    source,
    has: (name) => name in definitions,
    properties: (name) => resolve(name)?.properties ?? {},
    compile: (schema, form = false) => (form ? formAjv : ajv).compile(schema),
    ref,
  };
}

/** Caches validators by a key: each is compiled once per process. */
export function cached(): (key: string, make: () => ValidateFunction | undefined) => ValidateFunction | undefined {
  const cache = new Map<string, ValidateFunction | undefined>();
  return (key, make) => {
    if (!cache.has(key)) cache.set(key, make());
    return cache.get(key);
  };
}
