/** Limits of the interface and docs/decisions.md that clients and the server both need to know. */
export const limits = {
  /** Requests per fixed window per token; the window resets every `rateLimitWindowSeconds`. */
  rateLimitRequests: 500,
  rateLimitWindowSeconds: 5,
  /** More entities in one call answers 403 TOO_MANY_ENTITIES. */
  maxEntitiesPerCall: 100,
} as const;
