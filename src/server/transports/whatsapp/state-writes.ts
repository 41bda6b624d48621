import { SessionLeaseLost, type SessionState } from '../../core/sessions/ports.ts';

/** The waits between tries of a state write that failed (the database away for a moment): four tries in about 6 s. */
export const STATE_WRITE_RETRIES_MS: readonly number[] = [200, 1_000, 5_000];

/**
 * A session's writes of its credentials and keys, one after another in the order the library made them, each tried
 * again after a failure. Written out of order, an older save of the credentials could land last and undo a newer
 * one; a write lost without a word would leave the session unable to read its next messages. A write that still fails
 * after its tries is reported (`failed`) and rejects, so the library knows too; a session taken over by another
 * process (SessionLeaseLost) is not tried again.
 */
export function orderedStateWrites(state: SessionState, failed: (err: unknown) => void, retriesMs: readonly number[] = STATE_WRITE_RETRIES_MS) {
  let queue: Promise<void> = Promise.resolve();
  const attempt = async (entries: () => Record<string, unknown>) => {
    for (let tried = 0; ; tried++) {
      try {
        // Read when its turn comes: a save of the credentials writes them as they are then, the newest.
        return await state.set(entries());
      } catch (err) {
        if (err instanceof SessionLeaseLost || tried >= retriesMs.length) {
          failed(err);
          throw err;
        }
        await new Promise((resolve) => setTimeout(resolve, retriesMs[tried]));
      }
    }
  };
  return (entries: () => Record<string, unknown>): Promise<void> => {
    const next = queue.then(() => attempt(entries));
    queue = next.catch(() => {});
    return next;
  };
}
