/**
 * The messenger's number of a file's words recorded as a message of their own: `<the file's number>:caption`, as
 * every driver records a caption (the interface's messages carry text or an attachment).
 */
const CAPTION_SUFFIX = ':caption';

/** The number the words of the file numbered `fileNumber` are recorded under. */
export const captionNumberOf = (fileNumber: string | number): string => `${fileNumber}${CAPTION_SUFFIX}`;

/** The number of the file whose caption the message numbered so is; null when it is no caption. */
export const captionedFileNumber = (messengerMessageId: string | null | undefined): string | null =>
  messengerMessageId?.endsWith(CAPTION_SUFFIX) ? messengerMessageId.slice(0, -CAPTION_SUFFIX.length) : null;
