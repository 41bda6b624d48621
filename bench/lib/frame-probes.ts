/**
 * What the widget benchmark runs inside the chat frame (through Playwright's frame.evaluate): opening a chat
 * and waiting for a message to be visible, and scrolling through a loaded history while counting frames and
 * long tasks. The functions are sent to the browser as source, so they use only what a page has.
 */

/**
 * Clicks the chat named `name` and answers the milliseconds until message `messageId` is fully in view, and how
 * long of that the history request took (resource timing: request sent to response read).
 */
export function openChatUntilVisible({ name, messageId, chatRef }: { name: string; messageId: string; chatRef: string }): Promise<{ ms: number; fetchMs: number }> {
  const button = [...document.querySelectorAll<HTMLButtonElement>('.gw-chat-row__button')].find(
    (b) => b.querySelector('.gw-chat-row__name')?.textContent === name,
  );
  if (!button) throw new Error(`no chat named ${name}`);
  performance.clearResourceTimings();
  const started = performance.now();
  button.click();
  return new Promise((resolve) => {
    const check = () => {
      const scroller = document.querySelector('.gw-history');
      const item = scroller?.querySelector(`[data-message-id="${messageId}"]`);
      if (scroller && item) {
        const a = item.getBoundingClientRect();
        const b = scroller.getBoundingClientRect();
        if (a.height > 0 && a.top >= b.top - 1 && a.bottom <= b.bottom + 1) {
          const ms = performance.now() - started;
          const read = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).find((e) => e.name.includes(`/chats/${chatRef}/messages`));
          return resolve({ ms, fetchMs: read ? read.responseEnd - read.startTime : Number.NaN });
        }
      }
      requestAnimationFrame(check);
    };
    check();
  });
}

export interface ScrollFigures {
  /** Older pages read until the start of the conversation. */
  pages: number;
  loadedMessages: number;
  loadAllMs: number;
  loadLongTasks: number;
  loadLongestTaskMs: number;
  /** Frame intervals while sweeping the whole loaded history top to bottom, one step per frame. */
  sweepFrames: number;
  sweepP95FrameMs: number;
  sweepMaxFrameMs: number;
  sweepLongTasks: number;
  /** Message elements in the DOM at the end (the rest are virtualized away). */
  renderedItems: number;
}

/** Scrolls to the top until every older page is loaded, then sweeps the whole history in `steps` frames. */
export async function scrollThroughHistory({ steps }: { steps: number }): Promise<ScrollFigures> {
  const scroller = document.querySelector<HTMLElement>('.gw-history')!;
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries().map((e) => e.duration)));
  observer.observe({ type: 'longtask', buffered: false });
  const nextFrame = () => new Promise<number>((r) => requestAnimationFrame(r));
  const count = () => Number(document.querySelector('.gw-history__items')?.getAttribute('data-count') ?? 0);
  const atStart = () => document.querySelector('.gw-history__edge')?.textContent?.includes('Start of the conversation') ?? false;

  const loadStarted = performance.now();
  let pages = 0;
  let seen = count();
  while (!atStart()) {
    scroller.scrollTop = 0;
    await nextFrame();
    if (count() !== seen) {
      seen = count();
      pages++;
    }
    if (performance.now() - loadStarted > 120_000) throw new Error('older pages did not finish loading');
  }
  const loadAllMs = performance.now() - loadStarted;
  await nextFrame();
  const loadTasks = longTasks.splice(0);

  const frames: number[] = [];
  let last = await nextFrame();
  for (let i = 1; i <= steps; i++) {
    scroller.scrollTop = ((scroller.scrollHeight - scroller.clientHeight) * i) / steps;
    const now = await nextFrame();
    frames.push(now - last);
    last = now;
  }
  observer.disconnect();
  const sorted = [...frames].sort((a, b) => a - b);
  return {
    pages,
    loadedMessages: count(),
    loadAllMs,
    loadLongTasks: loadTasks.length,
    loadLongestTaskMs: Math.max(0, ...loadTasks),
    sweepFrames: frames.length,
    sweepP95FrameMs: sorted[Math.min(sorted.length - 1, Math.ceil(0.95 * sorted.length) - 1)]!,
    sweepMaxFrameMs: sorted.at(-1)!,
    sweepLongTasks: longTasks.length,
    renderedItems: document.querySelectorAll('.gw-history__item').length,
  };
}

/** Posts `bench_first_chat` to the host page when the first chat row is in the DOM (an init script of every frame). */
export const firstChatSignal = `
  if (location.pathname === '/embed/chats') {
    new MutationObserver((_, observer) => {
      if (document.querySelector('.gw-chat-row')) {
        observer.disconnect();
        parent.postMessage({ type: 'bench_first_chat' }, '*');
      }
    }).observe(document, { childList: true, subtree: true });
  }`;
