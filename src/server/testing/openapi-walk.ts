/**
 * Walks the gateway's own OpenAPI document, for tests that send hostile input to every route: the routes with
 * their methods, and the places in a body schema where a string can stand.
 */

export interface OpenApiDocument {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: { schemas?: Record<string, Schema> };
}

export interface OpenApiOperation {
  parameters?: { in: string; name: string; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
}

export type Schema = Record<string, unknown>;

export interface Route {
  method: string;
  /** With each `{param}` filled in. */
  url: string;
  path: string;
  operation: OpenApiOperation;
}

const METHODS = new Set(['get', 'post', 'put', 'patch', 'delete']);

/** Every operation of the document, its path parameters filled with `fill(name)`. */
export function routesOf(doc: OpenApiDocument, fill: (param: string) => string): Route[] {
  return Object.entries(doc.paths).flatMap(([path, operations]) =>
    Object.entries(operations)
      .filter(([method]) => METHODS.has(method))
      .map(([method, operation]) => ({
        method: method.toUpperCase(),
        path,
        url: path.replace(/\{(\w+)\}/g, (_m, name: string) => encodeURIComponent(fill(name))),
        operation,
      })),
  );
}

type Key = string | number;

/**
 * Each path in a body where the schema lets a string stand: properties, array items (as index 0), map values (as
 * key `k`), every branch of `anyOf`/`oneOf`/`allOf`. Where the schema says nothing (`{}`, checked by the route
 * itself), both a string and an object with a `name` string are tried.
 */
export function stringPlaces(doc: OpenApiDocument, schema: Schema, at: Key[] = [], depth = 0): Key[][] {
  if (depth > 8) return [];
  const ref = schema.$ref;
  if (typeof ref === 'string') {
    const target = doc.components?.schemas?.[ref.replace('#/components/schemas/', '')];
    return target ? stringPlaces(doc, target, at, depth + 1) : [];
  }
  const places: Key[][] = [];
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    for (const branch of (schema[key] as Schema[] | undefined) ?? []) places.push(...stringPlaces(doc, branch, at, depth + 1));
  }
  const types = ([] as unknown[]).concat(schema.type ?? []);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (properties) for (const [name, sub] of Object.entries(properties)) places.push(...stringPlaces(doc, sub, [...at, name], depth + 1));
  if (typeof schema.additionalProperties === 'object') places.push(...stringPlaces(doc, schema.additionalProperties as Schema, [...at, 'k'], depth + 1));
  if (types.includes('array') && typeof schema.items === 'object') places.push(...stringPlaces(doc, schema.items as Schema, [...at, 0], depth + 1));
  if (types.includes('string')) places.push(at);
  const opaque = types.length === 0 && !properties && !schema.anyOf && !schema.oneOf && !schema.allOf && !('const' in schema) && !schema.enum;
  if (opaque) places.push(at, [...at, 'name']);
  const seen = new Set<string>();
  return places.filter((p) => {
    const key = JSON.stringify(p);
    return seen.has(key) ? false : (seen.add(key), true);
  });
}

/** A body holding `value` at `place` and nothing else. */
export function bodyWith(place: Key[], value: unknown): unknown {
  let body = value;
  for (let i = place.length - 1; i >= 0; i--) {
    const key = place[i]!;
    body = typeof key === 'number' ? [body] : { [key]: body };
  }
  return body;
}

/** The field a refusal names for a place: `users.0.name`, or `body` for the whole body. */
export const fieldOf = (place: Key[]): string => (place.length === 0 ? 'body' : place.join('.'));
