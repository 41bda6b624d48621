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
