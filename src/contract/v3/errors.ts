import { Type, type Static } from 'typebox';

/**
 * The v3 face's error body: `{error, description, data?}`, as the v2 face, plus the HTTP `status` and the
 * request's id on the message routes' refusals. A sidecar key outside its routes reads `{"error": "FORBIDDEN"}` alone.
 */
export const V3ErrorBody = Type.Object({
  error: Type.String({ description: 'Symbolic code: UPPER_SNAKE (e.g. INVALID_MESSAGE_DATA), camelCase on the webhook route.' }),
  description: Type.Optional(Type.String({ description: 'Short English text.' })),
  status: Type.Optional(Type.Integer({ description: 'The HTTP status again (message routes).' })),
  requestId: Type.Optional(Type.String({ description: 'The request id, also in the x-request-id header (message routes).' })),
  data: Type.Optional(Type.Unknown({ description: 'For developers: e.g. `{fields: [...]}` naming the fields at fault.' })),
});
export type V3ErrorBody = Static<typeof V3ErrorBody>;

/** What a v3 route answers on refusal, for the reference. */
export const v3Errors = {
  400: V3ErrorBody,
  401: V3ErrorBody,
  403: V3ErrorBody,
  429: V3ErrorBody,
  500: V3ErrorBody,
} as const;

export const v3ErrorsWithNotFound = { ...v3Errors, 404: V3ErrorBody } as const;
