/**
 * An attachment of a message a bot sent, as MAX keeps it: a file the bot uploaded (named by its token) becomes MAX's
 * attachment of its kind, with an address under the emulator's `base` and, for an image, its photo id (`nextId`;
 * MAX's PhotoAttachmentPayload); a file's name and size come along. A keyboard stays as it was sent.
 */
export function keptAttachment(attachment: { type: string; payload?: Record<string, unknown> }, base: string, nextId: () => number): Record<string, unknown> {
  // An image may be named by the upload's answer (`photos`: its tokens by size).
  const photos = Object.values((attachment.payload?.photos ?? {}) as Record<string, { token?: unknown }>);
  const named = attachment.payload?.token ?? photos[0]?.token;
  const token = typeof named === 'string' ? named : undefined;
  if (attachment.type === 'inline_keyboard' || !token) return attachment;
  const url = `${base}/cdn/${encodeURIComponent(token)}`;
  if (attachment.type === 'image') return { type: 'image', payload: { photo_id: nextId(), token, url } };
  if (attachment.type === 'file') return { type: 'file', payload: { url, token }, filename: token, size: 0 };
  return { type: attachment.type, payload: { url, token } };
}
