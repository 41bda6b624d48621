import { ErrorBody } from '../../../contract/errors.ts';

/** Error responses shared by authenticated routes, for the OpenAPI document. */
export const authErrors = {
  400: ErrorBody,
  401: ErrorBody,
  403: ErrorBody,
  429: ErrorBody,
  500: ErrorBody,
} as const;

export const withNotFound = { ...authErrors, 404: ErrorBody } as const;
