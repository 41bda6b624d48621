import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler, FastifySchemaValidationError } from 'fastify';
import { unstorablePlace } from './unstorable-text.ts';

/**
 * Two validators: bodies are checked strictly (a number is not a string, unknown fields are refused),
 * while path and query strings are coerced, since everything there arrives as text.
 */
function makeAjv(options: Options): Ajv {
  const ajv = new Ajv({ allErrors: true, strict: false, useDefaults: true, removeAdditional: false, ...options });
  addFormats.default(ajv);
  return ajv;
}

const bodyAjv = makeAjv({ coerceTypes: false });
const textAjv = makeAjv({ coerceTypes: 'array' });

type Validate = ((data: unknown) => boolean) & { errors?: FastifySchemaValidationError[] | null };

/**
 * A validator that first refuses strings holding U+0000 or an unpaired surrogate, which the database cannot store,
 * naming the field: query strings, path parameters and headers, short and few. Bodies are refused where they are
 * parsed (app.ts, unstorable-text.ts), before a route can rewrite them.
 */
function refusingUnstorable(validate: Validate): Validate {
  const checked: Validate = (data) => {
    const at = unstorablePlace(data);
    if (at !== null) {
      checked.errors = [{ instancePath: at.pointer, schemaPath: '#', keyword: 'unstorable', params: {}, message: at.message }];
      return false;
    }
    const valid = validate(data);
    checked.errors = validate.errors ?? null;
    return valid;
  };
  return checked;
}

/**
 * Compiled on a route's first request rather than while the routes are registered: compiling every route's schemas
 * took a large part of each start, for routes that a given run may never be asked. (The schemas are compiled by
 * the tests, so a broken one is still found before it ships.)
 */
function compiledOnFirstUse(ajv: Ajv, schema: object): Validate {
  let compiled: Validate | null = null;
  const validate: Validate = (data) => {
    compiled ??= ajv.compile(schema) as Validate;
    const valid = compiled(data);
    validate.errors = compiled.errors ?? null;
    return valid;
  };
  return validate;
}

export const validatorCompiler: FastifySchemaCompiler<unknown> = ({ schema, httpPart }) =>
  httpPart === 'body' ? compiledOnFirstUse(bodyAjv, schema as object) : refusingUnstorable(compiledOnFirstUse(textAjv, schema as object));
