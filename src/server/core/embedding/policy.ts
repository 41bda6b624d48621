/** Lifetimes and bounds of links, sessions and the realtime catch-up. */
export const embeddingPolicy = {
  /** A link must be opened within this time. */
  linkTtlSeconds: 60 * 60,
  /** A session lives this long after its exchange or last renewal. */
  sessionTtlSeconds: 15 * 60,
  /** However often it is renewed, a session ends this long after the link was exchanged. */
  sessionMaxSeconds: 12 * 60 * 60,
  /** Ended sessions are forgotten after this; by then their links have long expired. */
  purgeAfterSeconds: 24 * 60 * 60,
  /** A reconnecting client further behind than this many events of its account is told to resync. */
  replayLimit: 1000,
  /**
   * Events are numbered when inserted but become visible when their transaction commits, so one with a lower
   * position can appear after a higher one was pushed. Catch-up therefore also resends what was recorded this
   * long before the client's last event; clients drop repeats by id.
   */
  replayOverlapSeconds: 30,
  /** Requests per rate-limit window (of the API's length) that one frame session may make to /bff. */
  sessionRateLimitRequests: 300,
  /**
   * Open frame sessions one account may have at once: each has its own request window, so without a cap a token
   * could open sessions to multiply its limit. Far above what the agents of one CRM keep open.
   */
  maxOpenSessionsPerAccount: 1000,
  /** Requests per rate-limit window that all the frame sessions of one account may make together. */
  accountFrameRateLimitRequests: 500,
  /** The most origins an account may allow. */
  maxOrigins: 100,
} as const;
