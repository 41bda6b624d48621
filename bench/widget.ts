/**
 * Widget: the chat frame's initial JS and CSS as the browser downloads them (gzipped), and in headless chromium:
 * - from a CRM page creating the iframe to the frame saying `ready` over the host bridge (session exchanged,
 *   stream connected), and to the first chat row in the frame's DOM. Baselines: the same iframe pointed at a
 *   bare gateway page (`/healthz`), and `ready` itself for the first chat;
 * - from a click on a chat of 10,000 messages to its newest message fully in view, against the same for a chat
 *   of 20 messages in the same run; then, in the big chat, scrolling to the top until every older page is
 *   loaded, and one sweep over the whole loaded history, one step per frame (frame intervals, long tasks).
 * The chats are bulk-written into the database (bench/lib/seeded-chats.ts). Reads the build in dist/
 * (`npm run build` first; `npm run bench` does it).
 *
 *   npm run build && npm run bench:widget      # BENCH_LOADS=20 BENCH_OPENS=10 BENCH_RUNS=3
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Frame, type Page } from '@playwright/test';
import { startBenchGateway } from './lib/gateway-process.ts';
import { callOrThrow } from './lib/calls.ts';
import { firstChatSignal, openChatUntilVisible, scrollThroughHistory, type ScrollFigures } from './lib/frame-probes.ts';
import { median, reportRows, type BenchRow } from './lib/report.ts';
import { seedChats } from './lib/seeded-chats.ts';

const loads = Number(process.env.BENCH_LOADS ?? 20);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const BUDGET_KB = 150;

/** Every script, module preload and stylesheet index.html makes the browser fetch before the app runs. */
async function initialAssets(): Promise<{ files: string[]; gzipBytes: number; rawBytes: number }> {
  const html = await readFile(join(dist, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/?(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]!);
  let gzipBytes = 0;
  let rawBytes = 0;
  for (const file of new Set(files)) {
    const content = await readFile(join(dist, file));
    rawBytes += content.length;
    gzipBytes += gzipSync(content).length;
  }
  return { files: [...new Set(files)], gzipBytes, rawBytes };
}

/**
 * A CRM page on an origin of its own that creates iframes on demand and times them: `time_frame` until the
 * frame said `ready` and showed its first chat, `time_load` until a plain page loaded, `keep_frame` leaves one open
 * (in place of the one before).
 */
async function hostPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>CRM</title><body style="margin:0"><script>
      const frameOf = (src) => { const f = document.createElement('iframe'); f.style.cssText = 'width:900px;height:600px;border:0'; f.src = src; return f; };
      window.time_frame = (src) => new Promise((resolve) => {
        const started = performance.now();
        const marks = {};
        const frame = frameOf(src);
        const on = (e) => {
          if (e.source !== frame.contentWindow || !e.data) return;
          if (e.data.type === 'ready') marks.ready ??= performance.now() - started;
          if (e.data.type === 'bench_first_chat') marks.firstChat ??= performance.now() - started;
          if (marks.ready !== undefined && marks.firstChat !== undefined) { removeEventListener('message', on); frame.remove(); resolve(marks); }
        };
        addEventListener('message', on);
        document.body.append(frame);
      });
      window.time_load = (src) => new Promise((resolve) => {
        const started = performance.now();
        const frame = frameOf(src);
        frame.addEventListener('load', () => { resolve(performance.now() - started); frame.remove(); }, { once: true });
        document.body.append(frame);
      });
      window.keep_frame = (src) => { document.querySelectorAll('iframe').forEach((f) => f.remove()); document.body.append(frameOf(src)); };
    </script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

const opens = Number(process.env.BENCH_OPENS ?? 10);
const BIG = { name: 'Big chat', messages: 10_000 };
const SMALL = { name: 'Small chat', messages: 20 };

interface RunFigures {
  ready: number;
  firstChat: number;
  bare: number;
  openBig: number;
  openSmall: number;
  fetchBig: number;
  fetchSmall: number;
  scroll: ScrollFigures;
}

type HostWindow = {
  time_frame(src: string): Promise<{ ready: number; firstChat: number }>;
  time_load(src: string): Promise<number>;
  keep_frame(src: string): void;
};

async function chatFrame(page: Page, before?: Frame): Promise<Frame> {
  for (;;) {
    const frame = page.frames().find((f) => f !== before && !f.isDetached() && /^https?:\/\/[^/]+\/embed\/chats(\?|$)/.test(f.url()));
    if (frame) return frame;
    await page.waitForTimeout(20);
  }
}

async function oneRun(): Promise<RunFigures> {
  const bench = await startBenchGateway({ tokens: 1 });
  const token = bench.tokens[0]!;
  // Twenty chats of a few messages, then the two measured ones, most recently active.
  const fillers = Array.from({ length: 20 }, (_, i) => ({ name: `Customer ${i + 1}`, messages: 3 }));
  const seeded = await seedChats(bench, [...fillers, SMALL, BIG]);
  const big = seeded.chats.find((c) => c.name === BIG.name)!;
  const small = seeded.chats.find((c) => c.name === SMALL.name)!;
  const baseURL = seeded.baseURL;
  const host = await hostPage();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    await callOrThrow(baseURL, 'PUT', '/v2/embedding/origins', token, { origins: [host.origin] });
    const link = () => callOrThrow<{ url: string }>(baseURL, 'POST', '/v2/iframe-links/chats', token, { user: { id: 'bench' }, scope: 'global' });
    const page = await browser.newPage({ viewport: { width: 960, height: 700 } });
    await page.addInitScript(firstChatSignal);
    await page.goto(host.origin);
    const timeFrame = (src: string) => page.evaluate((s) => (window as unknown as HostWindow).time_frame(s), src);
    const timeLoad = (src: string) => page.evaluate((s) => (window as unknown as HostWindow).time_load(s), src);

    const ready: number[] = [];
    const firstChat: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < loads + 2; i++) {
      const url = (await link()).url;
      const f = await timeFrame(url);
      const b = await timeLoad(`${baseURL}/healthz`);
      // The first loads fill the browser's cache as a returning agent's would be.
      if (i >= 2) {
        ready.push(f.ready);
        firstChat.push(f.firstChat);
        bare.push(b);
      }
    }

    const keepFrame = async (before?: Frame) => {
      await page.evaluate((s) => (window as unknown as HostWindow).keep_frame(s), (await link()).url);
      const frame = await chatFrame(page, before);
      await frame.waitForSelector('.gw-chat-row');
      return frame;
    };
    let frame = await keepFrame();
    const openBig: number[] = [];
    const openSmall: number[] = [];
    const fetchBig: number[] = [];
    const fetchSmall: number[] = [];
    // Each round opens both chats in a new frame: a chat is opened cold, never from what the frame read before.
    for (let i = 0; i < opens + 1; i++) {
      if (i > 0) frame = await keepFrame(frame);
      const s = await frame.evaluate(openChatUntilVisible, { name: small.name, messageId: small.newestId!, chatRef: small.chatRef });
      const b = await frame.evaluate(openChatUntilVisible, { name: big.name, messageId: big.newestId!, chatRef: big.chatRef });
      if (i >= 1) {
        openSmall.push(s.ms);
        openBig.push(b.ms);
        fetchSmall.push(s.fetchMs);
        fetchBig.push(b.fetchMs);
      }
    }
    // The big chat is open: read every older page, then sweep the 10,000 messages.
    const scroll = await frame.evaluate(scrollThroughHistory, { steps: 300 });
    return { ready: median(ready), firstChat: median(firstChat), bare: median(bare), openBig: median(openBig), openSmall: median(openSmall), fetchBig: median(fetchBig), fetchSmall: median(fetchSmall), scroll };
  } finally {
    await browser.close();
    await host.close();
    await seeded.stop();
    await bench.cleanup();
  }
}

const assets = await initialAssets();
console.log(`widget: initial JS+CSS ${assets.files.join(', ')}: ${(assets.rawBytes / 1024).toFixed(1)} KB raw, ${(assets.gzipBytes / 1024).toFixed(1)} KB gzipped`);
const all: RunFigures[] = [];
for (let run = 1; run <= runs; run++) {
  const t = await oneRun();
  all.push(t);
  console.log(
    `  run ${run}: frame → ready ${t.ready.toFixed(1)} ms, → first chat ${t.firstChat.toFixed(1)} ms (medians of ${loads}), bare page ${t.bare.toFixed(1)} ms; ` +
      `open 10,000-message chat ${t.openBig.toFixed(1)} ms (history request ${t.fetchBig.toFixed(1)} ms), ` +
      `20-message chat ${t.openSmall.toFixed(1)} ms (request ${t.fetchSmall.toFixed(1)} ms) (medians of ${opens})`,
  );
  const sc = t.scroll;
  console.log(
    `    older pages: ${sc.pages} read to ${sc.loadedMessages} messages in ${sc.loadAllMs.toFixed(0)} ms, ${sc.loadLongTasks} long tasks (longest ${sc.loadLongestTaskMs.toFixed(0)} ms); ` +
      `sweep: ${sc.sweepFrames} frames, p95 ${sc.sweepP95FrameMs.toFixed(1)} ms, max ${sc.sweepMaxFrameMs.toFixed(1)} ms, ${sc.sweepLongTasks} long tasks, ${sc.renderedItems} items in the DOM`,
  );
}
const m = (pick: (f: RunFigures) => number) => median(all.map(pick));
const rows: BenchRow[] = [
  {
    row: 'widget',
    metric: 'chat frame initial JS+CSS, gzipped',
    unit: 'KB',
    database: null,
    ours: Number((assets.gzipBytes / 1024).toFixed(1)),
    baseline: null,
    baselineName: null,
    ratio: null,
    budget: `≤ ${BUDGET_KB} KB`,
    met: assets.gzipBytes / 1024 <= BUDGET_KB,
    runs: 1,
    details: { raw_kb: Number((assets.rawBytes / 1024).toFixed(1)), files: assets.files.join(' ') },
  },
  {
    row: 'widget',
    metric: 'frame load → ready (session, stream)',
    unit: 'ms',
    database: 'PGlite',
    ours: m((f) => f.ready),
    baseline: m((f) => f.bare),
    baselineName: 'iframe of a bare gateway page',
    ratio: m((f) => f.ready) / m((f) => f.bare),
    budget: null,
    met: null,
    runs,
    details: { loads_per_run: loads },
  },
  {
    row: 'widget',
    metric: 'frame load → first chat rendered',
    unit: 'ms',
    database: 'PGlite',
    ours: m((f) => f.firstChat),
    baseline: m((f) => f.bare),
    baselineName: 'iframe of a bare gateway page',
    ratio: m((f) => f.firstChat) / m((f) => f.bare),
    budget: null,
    met: null,
    runs,
    details: { loads_per_run: loads, frame_to_ready_ms: Number(m((f) => f.ready).toFixed(1)), chats_listed: 22 },
  },
  {
    row: 'widget',
    metric: 'opening a 10,000-message chat → newest message visible',
    unit: 'ms',
    database: 'PGlite',
    ours: m((f) => f.openBig),
    baseline: m((f) => f.openSmall),
    baselineName: 'opening a 20-message chat',
    ratio: m((f) => f.openBig) / m((f) => f.openSmall),
    budget: null,
    met: null,
    runs,
    details: {
      opens_per_run: opens,
      history_request_ms: Number(m((f) => f.fetchBig).toFixed(1)),
      history_request_20_ms: Number(m((f) => f.fetchSmall).toFixed(1)),
      older_pages_to_the_start: m((f) => f.scroll.pages),
      all_pages_loaded_ms: Math.round(m((f) => f.scroll.loadAllMs)),
      long_tasks_while_loading: m((f) => f.scroll.loadLongTasks),
      longest_task_while_loading_ms: Math.round(m((f) => f.scroll.loadLongestTaskMs)),
      sweep_10000_p95_frame_ms: Number(m((f) => f.scroll.sweepP95FrameMs).toFixed(1)),
      sweep_10000_max_frame_ms: Number(m((f) => f.scroll.sweepMaxFrameMs).toFixed(1)),
      sweep_long_tasks: m((f) => f.scroll.sweepLongTasks),
      items_in_dom: m((f) => f.scroll.renderedItems),
    },
  },
];
console.log(`frame → ready ${m((f) => f.ready).toFixed(1)} ms, → first chat ${m((f) => f.firstChat).toFixed(1)} ms, against ${m((f) => f.bare).toFixed(1)} ms for a bare page`);
console.log(`open a 10,000-message chat ${m((f) => f.openBig).toFixed(1)} ms against ${m((f) => f.openSmall).toFixed(1)} ms for 20 messages`);
await reportRows(rows);
