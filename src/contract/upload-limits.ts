/** The limits on files an agent attaches in the chat frame (uploads.ts), apart from the schemas so that a page can read them alone. */
export const uploadLimits = {
  /** Bytes in one file: what the messengers' bots take for documents (Telegram's 50 MB) is more than a frame should post. */
  maxBytes: 20 * 1024 * 1024,
  nameChars: 256,
  /** Days an upload is kept: its link answers 404 after that. */
  keptDays: 30,
} as const;
