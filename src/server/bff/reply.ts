import type { EnvelopeOf } from '../../contract/envelope.ts';
import { ErrorBody } from '../../contract/errors.ts';
import type { Clock } from '../core/ports.ts';

/** The same envelope as /v2, so the frame reads one shape everywhere. */
export const ok = <T>(clock: Clock, data: T): EnvelopeOf<T> => ({ data, meta: { timestamp: Math.floor(clock.now().getTime() / 1000) } });

/** Error responses of session-authenticated routes, for the OpenAPI document. */
export const sessionErrors = { 400: ErrorBody, 401: ErrorBody, 403: ErrorBody, 404: ErrorBody, 429: ErrorBody, 500: ErrorBody } as const;
