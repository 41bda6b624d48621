import { Type, type Static } from 'typebox';

/**
 * Every error code the gateway answers with, and its HTTP status (docs/decisions.md, "HTTP statuses and error bodies").
 * One table, read by the server's error handler, the OpenAPI document and the widget.
 */
export const errorStatus = {
  VALIDATION_ERROR: 400,
  MESSAGES_EDITING_TIME_EXPIRED: 400,
  CHANNEL_INVALID_TRANSPORT_FOR_EDITING: 400,
  CHANNEL_INVALID_TRANSPORT_FOR_CONTENT_EDITING: 400,
  MESSAGES_CONTAIN_BUTTONS: 400,
  CHANNEL_INVALID_TRANSPORT_FOR_DELETION: 400,
  CHANNEL_INVALID_TRANSPORT_FOR_REACTIONS: 400,
  TWO_FACTOR_CODE_INVALID: 400,
  WEBHOOK_URL_NOT_ALLOWED: 400,
  INVALID_USER_DATA: 400,
  INVALID_CONTACT_DATA: 400,
  INVALID_DEAL_DATA: 400,
  INVALID_PIPELINE_DATA: 400,
  INVALID_SETTINGS_DATA: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  TOO_MANY_ENTITIES: 403,
  NOT_FOUND: 404,
  ACCOUNT_NOT_FOUND: 404,
  TOKEN_NOT_FOUND: 404,
  CHANNEL_NOT_FOUND: 404,
  CHAT_NOT_FOUND: 404,
  MESSAGE_NOT_FOUND: 404,
  EXPORT_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  WEBHOOK_DELIVERY_NOT_FOUND: 404,
  TEMPLATE_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  CONTACT_NOT_FOUND: 404,
  DEAL_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  REQUEST_TIMEOUT: 408,
  CHANNEL_QR_EXPIRED: 409,
  CHANNEL_WRONG_STATUS: 409,
  TEMPLATE_NOT_APPROVED: 409,
  DOWNLOAD_EXPIRED: 410,
  WEBHOOK_DISABLED: 409,
  PAYLOAD_TOO_LARGE: 413,
  URI_TOO_LONG: 414,
  UNSUPPORTED_MEDIA_TYPE: 415,
  TOO_MANY_REQUESTS: 429,
  UPLOAD_QUOTA_EXCEEDED: 429,
  HEADERS_TOO_LARGE: 431,
  // OAuth 2.0's own names (RFC 6749 §5.2), as the token endpoint answers them.
  invalid_request: 400,
  invalid_client: 401,
  invalid_grant: 400,
  invalid_scope: 400,
  unsupported_grant_type: 400,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof errorStatus;

export const ErrorBody = Type.Object(
  {
    error: Type.String({ description: 'Symbolic error code, e.g. CHANNEL_NOT_FOUND.' }),
    description: Type.String({ description: 'Short English description.' }),
    data: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'Extra information for developers.' })),
  },
);
export type ErrorBody = Static<typeof ErrorBody>;

/** One entry of `data.fields` in a 400 VALIDATION_ERROR: which field and why. */
export interface FieldError {
  field: string;
  message: string;
}
