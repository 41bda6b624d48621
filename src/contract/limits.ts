/** Limits of the interface and docs/decisions.md that clients and the server both need to know. */
export const limits = {
  /** Requests per fixed window per token; the window resets every `rateLimitWindowSeconds`. */
  rateLimitRequests: 500,
  rateLimitWindowSeconds: 5,
  /** More entities in one call answers 403 TOO_MANY_ENTITIES. */
  maxEntitiesPerCall: 100,
  /** The largest `offset` a list takes (what a 32-bit count can say); beyond it is refused, not sent to the database. */
  maxListOffset: 2_147_483_647,
} as const;
