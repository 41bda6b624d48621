/**
 * Garbage collection on demand in another Node process, through its inspector (start it with
 * `--inspect=127.0.0.1:<port>`): memory figures read right after a full collection are not at the mercy
 * of when V8 last collected.
 */
export async function inspectorOf(port: number): Promise<{ collectGarbage(): Promise<void>; close(): void }> {
  const targets = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(targets[0]!.webSocketDebuggerUrl);
  await new Promise<void>((resolve, reject) => {
    socket.addEventListener('open', () => resolve(), { once: true });
    socket.addEventListener('error', () => reject(new Error('inspector connection failed')), { once: true });
  });
  let nextId = 1;
  const call = (method: string) =>
    new Promise<void>((resolve) => {
      const id = nextId++;
      const onMessage = (e: MessageEvent) => {
        if ((JSON.parse(String(e.data)) as { id?: number }).id !== id) return;
        socket.removeEventListener('message', onMessage);
        resolve();
      };
      socket.addEventListener('message', onMessage);
      socket.send(JSON.stringify({ id, method }));
    });
  return {
    async collectGarbage() {
      await call('HeapProfiler.collectGarbage');
    },
    close: () => socket.close(),
  };
}
