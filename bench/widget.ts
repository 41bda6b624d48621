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
 * BENCH_BASELINE_DIR names a checkout of an earlier commit with its dependencies installed and its dist/ built:
 * the same figures are then taken from that build, served by that checkout's own gateway on its own database with
 * the same chats, in the same run and the same browser, each load and each open alternating between the two
 * builds. The comparison covers the whole frame as an agent gets it: page, scripts and the gateway answering them.
 *
 *   npm run build && npm run bench:widget      # BENCH_LOADS=20 BENCH_OPENS=10 BENCH_RUNS=3
 *   git worktree add --detach ../base <commit> && (cd ../base && npm ci && npx vite build)
 *   BENCH_BASELINE_DIR=../base npm run bench:widget
 */
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium, type Frame, type Page } from '@playwright/test';
import { startBenchGateway, type BenchGateway } from './lib/gateway-process.ts';
import { callOrThrow } from './lib/calls.ts';
import { firstChatSignal, openChatUntilVisible, scrollThroughHistory, type ScrollFigures } from './lib/frame-probes.ts';
import { median, reportRows, type BenchRow } from './lib/report.ts';
import { seedChats, type ChatSeed, type SeededChat } from './lib/seeded-chats.ts';

const loads = Number(process.env.BENCH_LOADS ?? 20);
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dist = fileURLToPath(new URL('../dist/', import.meta.url));
const baselineDir = process.env.BENCH_BASELINE_DIR ? resolve(process.env.BENCH_BASELINE_DIR) : null;
const BUDGET_KB = 150;

/** Every script, module preload and stylesheet index.html makes the browser fetch before the app runs. */
async function initialAssets(dist: string): Promise<{ files: string[]; gzipBytes: number; rawBytes: number }> {
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

/** A build of the frame with the gateway that serves it: this checkout's, or the baseline checkout's. */
interface Build {
  label: string;
  dist: string;
  start(options: { tokens: number }): Promise<BenchGateway>;
  seed(bench: BenchGateway, seeds: ChatSeed[]): Promise<{ baseURL: string; chats: SeededChat[]; stop(): Promise<void> }>;
}

const ours: Build = { label: 'this build', dist, start: startBenchGateway, seed: seedChats };

/** The baseline checkout's own bench helpers, which spawn its own gateway (serving its own dist/) on its own schema. */
async function baselineBuild(dir: string): Promise<Build> {
  const gateway = (await import(pathToFileURL(join(dir, 'bench/lib/gateway-process.ts')).href)) as { startBenchGateway: Build['start'] };
  const seeded = (await import(pathToFileURL(join(dir, 'bench/lib/seeded-chats.ts')).href)) as { seedChats: Build['seed'] };
  return { label: 'baseline build', dist: join(dir, 'dist'), start: gateway.startBenchGateway, seed: seeded.seedChats };
}

interface RunFigures {
  ready: number;
  firstChat: number;
  bare: number;
  openBig: number;
  openSmall: number;
  fetchBig: number;
  fetchSmall: number;
  scroll: ScrollFigures | null;
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

/** One build's gateway with the seeded chats, and the samples taken from it during a run. */
interface Side {
  build: Build;
  baseURL: string;
  link(): Promise<string>;
  big: SeededChat;
  small: SeededChat;
  ready: number[];
  firstChat: number[];
  bare: number[];
  openBig: number[];
  openSmall: number[];
  fetchBig: number[];
  fetchSmall: number[];
  stop(): Promise<void>;
}

async function startSide(build: Build, hostOrigin: string): Promise<Side> {
  const bench = await build.start({ tokens: 1 });
  const token = bench.tokens[0]!;
  try {
    // Twenty chats of a few messages, then the two measured ones, most recently active.
    const fillers = Array.from({ length: 20 }, (_, i) => ({ name: `Customer ${i + 1}`, messages: 3 }));
    const seeded = await build.seed(bench, [...fillers, SMALL, BIG]);
    const baseURL = seeded.baseURL;
    await callOrThrow(baseURL, 'PUT', '/v2/embedding/origins', token, { origins: [hostOrigin] });
    return {
      build,
      baseURL,
      link: async () => (await callOrThrow<{ url: string }>(baseURL, 'POST', '/v2/iframe-links/chats', token, { user: { id: 'bench' }, scope: 'global' })).url,
      big: seeded.chats.find((c) => c.name === BIG.name)!,
      small: seeded.chats.find((c) => c.name === SMALL.name)!,
      ...{ ready: [], firstChat: [], bare: [], openBig: [], openSmall: [], fetchBig: [], fetchSmall: [] },
      async stop() {
        await seeded.stop();
        await bench.cleanup();
      },
    };
  } catch (error) {
    await bench.cleanup();
    throw error;
  }
}

/** The builds in turn, starting with a different one each round, so that neither always goes first. */
const inTurn = <T>(items: T[], round: number): T[] => [...items.slice(round % items.length), ...items.slice(0, round % items.length)];

async function oneRun(builds: Build[]): Promise<RunFigures[]> {
  const host = await hostPage();
  const sides: Side[] = [];
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    for (const build of builds) sides.push(await startSide(build, host.origin));
    const page = await browser.newPage({ viewport: { width: 960, height: 700 } });
    await page.addInitScript(firstChatSignal);
    await page.goto(host.origin);
    const timeFrame = (src: string) => page.evaluate((s) => (window as unknown as HostWindow).time_frame(s), src);
    const timeLoad = (src: string) => page.evaluate((s) => (window as unknown as HostWindow).time_load(s), src);

    for (let i = 0; i < loads + 2; i++) {
      for (const side of inTurn(sides, i)) {
        const f = await timeFrame(await side.link());
        const b = await timeLoad(`${side.baseURL}/healthz`);
        // The first loads fill the browser's cache as a returning agent's would be.
        if (i >= 2) {
          side.ready.push(f.ready);
          side.firstChat.push(f.firstChat);
          side.bare.push(b);
        }
      }
    }

    let frame: Frame | undefined;
    const keepFrame = async (side: Side) => {
      await page.evaluate((s) => (window as unknown as HostWindow).keep_frame(s), await side.link());
      frame = await chatFrame(page, frame);
      await frame.waitForSelector('.gw-chat-row');
      return frame;
    };
    // Each round opens both chats in a new frame: a chat is opened cold, never from what the frame read before.
    for (let i = 0; i < opens + 1; i++) {
      for (const side of inTurn(sides, i)) {
        const opened = await keepFrame(side);
        const s = await opened.evaluate(openChatUntilVisible, { name: side.small.name, messageId: side.small.newestId!, chatRef: side.small.chatRef });
        const b = await opened.evaluate(openChatUntilVisible, { name: side.big.name, messageId: side.big.newestId!, chatRef: side.big.chatRef });
        if (i >= 1) {
          side.openSmall.push(s.ms);
          side.openBig.push(b.ms);
          side.fetchSmall.push(s.fetchMs);
          side.fetchBig.push(b.fetchMs);
        }
      }
    }
    // In this build's frame, the big chat open: read every older page, then sweep the 10,000 messages.
    const mine = sides[0]!;
    const opened = await keepFrame(mine);
    await opened.evaluate(openChatUntilVisible, { name: mine.big.name, messageId: mine.big.newestId!, chatRef: mine.big.chatRef });
    const scroll = await opened.evaluate(scrollThroughHistory, { steps: 300 });
    return sides.map((side, i) => ({
      ready: median(side.ready),
      firstChat: median(side.firstChat),
      bare: median(side.bare),
      openBig: median(side.openBig),
      openSmall: median(side.openSmall),
      fetchBig: median(side.fetchBig),
      fetchSmall: median(side.fetchSmall),
      scroll: i === 0 ? scroll : null,
    }));
  } finally {
    await browser.close();
    await host.close();
    for (const side of sides) await side.stop();
  }
}

function baselineCommit(dir: string): string {
  return execFileSync('git', ['-C', dir, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
}

const builds = baselineDir ? [ours, await baselineBuild(baselineDir)] : [ours];
const assets = await Promise.all(builds.map((b) => initialAssets(b.dist)));
for (const [i, a] of assets.entries()) {
  console.log(`widget, ${builds[i]!.label}: initial JS+CSS ${a.files.join(', ')}: ${(a.rawBytes / 1024).toFixed(1)} KB raw, ${(a.gzipBytes / 1024).toFixed(1)} KB gzipped`);
}
/** all[run][build] */
const all: RunFigures[][] = [];
for (let run = 1; run <= runs; run++) {
  const figures = await oneRun(builds);
  all.push(figures);
  for (const [i, t] of figures.entries()) {
    console.log(
      `  run ${run}, ${builds[i]!.label}: frame → ready ${t.ready.toFixed(1)} ms, → first chat ${t.firstChat.toFixed(1)} ms (medians of ${loads}), bare page ${t.bare.toFixed(1)} ms; ` +
        `open 10,000-message chat ${t.openBig.toFixed(1)} ms (history request ${t.fetchBig.toFixed(1)} ms), ` +
        `20-message chat ${t.openSmall.toFixed(1)} ms (request ${t.fetchSmall.toFixed(1)} ms) (medians of ${opens})`,
    );
  }
  const sc = figures[0]!.scroll!;
  console.log(
    `    older pages: ${sc.pages} read to ${sc.loadedMessages} messages in ${sc.loadAllMs.toFixed(0)} ms, ${sc.loadLongTasks} long tasks (longest ${sc.loadLongestTaskMs.toFixed(0)} ms); ` +
      `sweep: ${sc.sweepFrames} frames, p95 ${sc.sweepP95FrameMs.toFixed(1)} ms, max ${sc.sweepMaxFrameMs.toFixed(1)} ms, ${sc.sweepLongTasks} long tasks, ${sc.renderedItems} items in the DOM`,
  );
}
const m = (pick: (f: RunFigures) => number, build = 0) => median(all.map((figures) => pick(figures[build]!)));
const mScroll = (pick: (f: ScrollFigures) => number) => m((f) => pick(f.scroll!));
const mine = assets[0]!;
// Named by its commit: the checkout's path means nothing to a reader of the results.
const old = baselineDir ? { assets: assets[1]!, name: `the build at commit ${baselineCommit(baselineDir)}, served by its own gateway` } : null;
/** Against the baseline build when there is one, else against `fallback` of this run. */
const against = (pick: (f: RunFigures) => number, fallback: (f: RunFigures) => number, fallbackName: string) => {
  const baseline = old ? m(pick, 1) : m(fallback);
  return { ours: m(pick), baseline, baselineName: old ? old.name : fallbackName, ratio: m(pick) / baseline };
};
const rows: BenchRow[] = [
  {
    row: 'widget',
    metric: 'chat frame initial JS+CSS, gzipped',
    unit: 'KB',
    database: null,
    ours: Number((mine.gzipBytes / 1024).toFixed(1)),
    baseline: old ? Number((old.assets.gzipBytes / 1024).toFixed(1)) : null,
    baselineName: old?.name ?? null,
    ratio: old ? mine.gzipBytes / old.assets.gzipBytes : null,
    budget: `≤ ${BUDGET_KB} KB`,
    met: mine.gzipBytes / 1024 <= BUDGET_KB,
    runs: 1,
    details: { raw_kb: Number((mine.rawBytes / 1024).toFixed(1)), files: mine.files.join(' ') },
  },
  {
    row: 'widget',
    metric: 'frame load → ready (session, stream)',
    unit: 'ms',
    database: 'PGlite',
    ...against((f) => f.ready, (f) => f.bare, 'iframe of a bare gateway page'),
    budget: null,
    met: null,
    runs,
    details: { loads_per_run: loads, bare_page_ms: Number(m((f) => f.bare).toFixed(1)) },
  },
  {
    row: 'widget',
    metric: 'frame load → first chat rendered',
    unit: 'ms',
    database: 'PGlite',
    ...against((f) => f.firstChat, (f) => f.bare, 'iframe of a bare gateway page'),
    budget: null,
    met: null,
    runs,
    details: { loads_per_run: loads, frame_to_ready_ms: Number(m((f) => f.ready).toFixed(1)), bare_page_ms: Number(m((f) => f.bare).toFixed(1)), chats_listed: 22 },
  },
  {
    row: 'widget',
    metric: 'opening a 10,000-message chat → newest message visible',
    unit: 'ms',
    database: 'PGlite',
    ...against((f) => f.openBig, (f) => f.openSmall, 'opening a 20-message chat'),
    budget: null,
    met: null,
    runs,
    details: {
      opens_per_run: opens,
      open_20_ms: Number(m((f) => f.openSmall).toFixed(1)),
      history_request_ms: Number(m((f) => f.fetchBig).toFixed(1)),
      history_request_20_ms: Number(m((f) => f.fetchSmall).toFixed(1)),
      older_pages_to_the_start: mScroll((s) => s.pages),
      all_pages_loaded_ms: Math.round(mScroll((s) => s.loadAllMs)),
      long_tasks_while_loading: mScroll((s) => s.loadLongTasks),
      longest_task_while_loading_ms: Math.round(mScroll((s) => s.loadLongestTaskMs)),
      sweep_10000_p95_frame_ms: Number(mScroll((s) => s.sweepP95FrameMs).toFixed(1)),
      sweep_10000_max_frame_ms: Number(mScroll((s) => s.sweepMaxFrameMs).toFixed(1)),
      sweep_long_tasks: mScroll((s) => s.sweepLongTasks),
      items_in_dom: mScroll((s) => s.renderedItems),
    },
  },
];
for (const [i, build] of builds.entries()) {
  console.log(
    `${build.label}: frame → ready ${m((f) => f.ready, i).toFixed(1)} ms, → first chat ${m((f) => f.firstChat, i).toFixed(1)} ms, against ${m((f) => f.bare, i).toFixed(1)} ms for a bare page; ` +
      `open a 10,000-message chat ${m((f) => f.openBig, i).toFixed(1)} ms against ${m((f) => f.openSmall, i).toFixed(1)} ms for 20 messages`,
  );
}
if (old) {
  for (const row of rows) console.log(`${row.metric}: ${Number(row.ours.toFixed(1))} against ${Number(row.baseline!.toFixed(1))} ${row.unit} (× ${row.ratio!.toFixed(3)})`);
}
await reportRows(rows);
