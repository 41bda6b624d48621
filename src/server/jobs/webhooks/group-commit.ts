/**
 * Gathers items that arrive while a flush is running and flushes them together: one transaction commits
 * the outcomes of every attempt that finished in the meantime, however many there are (group commit).
 * A flush starts on the next turn of the event loop, so that answers that arrived together share it.
 * If a whole group fails, its items are flushed one by one, so one bad item cannot take the others down.
 */
export function groupCommit<T>(flush: (items: T[]) => Promise<void>, maxGroup = 500): { add(item: T): Promise<void> } {
  const waiting: { item: T; done: (err?: unknown) => void }[] = [];
  let running = false;

  const drain = async () => {
    while (waiting.length > 0) {
      const group = waiting.splice(0, maxGroup);
      try {
        await flush(group.map((g) => g.item));
        for (const g of group) g.done();
      } catch (err) {
        if (group.length === 1) group[0]!.done(err);
        else for (const g of group) await flush([g.item]).then(() => g.done(), g.done);
      }
    }
    running = false;
  };

  return {
    add: (item) =>
      new Promise<void>((resolve, reject) => {
        waiting.push({ item, done: (err) => (err === undefined ? resolve() : reject(err instanceof Error ? err : new Error(String(err)))) });
        if (!running) {
          running = true;
          setImmediate(() => void drain());
        }
      }),
  };
}
