import { errorStatus, type ErrorCode, type FieldError } from '../../contract/errors.ts';

/**
 * The one error type of the domain. It carries a symbolic code from the contract's table; the HTTP layer
 * maps it to a status and the body `{error, description, data?}`. Anything else thrown is a 500.
 */
export class AppError extends Error {
  readonly code: ErrorCode;
  readonly data: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, description: string, data?: Record<string, unknown>) {
    super(description);
    this.name = 'AppError';
    this.code = code;
    this.data = data;
  }

  get status(): number {
    return errorStatus[this.code];
  }
}

export const validationError = (fields: FieldError[], description = 'Request validation failed'): AppError =>
  new AppError('VALIDATION_ERROR', description, { fields });
