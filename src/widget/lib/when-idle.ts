import { useEffect, useState } from 'react';

/**
 * Runs `task` once the browser is idle (the frames after what the agent waits for are painted), or soon where the
 * browser cannot tell; answers a cancel. For work the agent does not see at first: it must not hold up what they do.
 */
export function whenIdle(task: () => void): () => void {
  if (typeof requestIdleCallback === 'function') {
    const id = requestIdleCallback(task, { timeout: 500 });
    return () => cancelIdleCallback(id);
  }
  const id = setTimeout(task, 50);
  return () => clearTimeout(id);
}

/** Runs `task` right after the next frame is painted; answers a cancel. For what may follow what was just drawn. */
export function afterPaint(task: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => (timer = setTimeout(task, 0)));
  return () => (cancelAnimationFrame(frame), clearTimeout(timer));
}

/**
 * False until `ready` has held and `schedule` (whenIdle or afterPaint) has then run, true from then on: for what
 * waits until the agent's first view is drawn, and is not taken back when that view is read again.
 */
export function useScheduledFlag(ready: boolean, schedule: (task: () => void) => () => void): boolean {
  const [done, setDone] = useState(false);
  useEffect(() => {
    if (ready && !done) return schedule(() => setDone(true));
  }, [ready, done, schedule]);
  return done;
}
