import type { ErrorObject, ValidateFunction } from 'ajv';

/**
 * What an emulator found out of its platform's published types (`../schemas/`, from npm) while a test ran: each
 * request the driver made and each answer or webhook the emulator gave is checked as it passes, and the emulator's
 * `close()` throws when any was wrong, which fails the suite. The exchange itself goes on as it would (the platform may well take or ignore
 * it): the check reports, it does not change what the test sees.
 */
export interface SchemaChecks {
  /** Checks `data` (what `what` names: `request sendMessage`, `answer POST /messages`, …); no validator: not checked. */
  check(what: string, validate: ValidateFunction | undefined, data: unknown): void;
  /** Every mismatch so far, one line each. */
  readonly mismatches: string[];
  /** Throws the mismatches, if any. */
  assertNone(): void;
}

const describe = (errors: ErrorObject[] | null | undefined) =>
  [...(errors ?? [])]
    // The deepest first: an alternative's own error says more than "must match a schema in anyOf".
    .filter((e) => !['anyOf', 'oneOf', 'if'].includes(e.keyword) && !(e.keyword === 'type' && e.params.type === 'null'))
    .sort((a, b) => b.instancePath.length - a.instancePath.length)
    .slice(0, 3)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? ''}${e.params && 'additionalProperty' in e.params ? ` (${String(e.params.additionalProperty)})` : ''}${e.params && 'unevaluatedProperty' in e.params ? ` (${String(e.params.unevaluatedProperty)})` : ''}`)
    .join('; ');

export function schemaChecks(platform: string): SchemaChecks {
  const mismatches: string[] = [];
  return {
    mismatches,
    check(what, validate, data) {
      if (!validate || validate(structuredClone(data))) return;
      const line = `${platform} ${what}: ${describe(validate.errors)}`;
      mismatches.push(line);
      process.emitWarning(line, 'SchemaMismatch');
    },
    assertNone() {
      if (mismatches.length > 0) throw new Error(`${platform}'s published API types were not kept:\n${mismatches.join('\n')}`);
    },
  };
}
