/**
 * Widget: the chat frame's initial JS and CSS as the browser downloads them (gzipped), and the time from a
 * CRM page creating the iframe to the frame saying `ready` over the host bridge (session exchanged, stream
 * connected) in headless chromium. Baseline for the load: the same iframe pointed at a bare page of the
 * gateway (`/healthz`), so the figure shows what the frame adds to a round trip of the same origin.
 * Reads the build in dist/ (`npm run build` first; `npm run bench` does it).
 *
 *   npm run build && npm run bench:widget      # BENCH_LOADS=20 BENCH_RUNS=3
 */
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { chromium } from '@playwright/test';
import { startBenchGateway } from './lib/gateway-process.ts';
import { callOrThrow } from './lib/calls.ts';
import { median, reportRows, type BenchRow } from './lib/report.ts';

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

/** A CRM page on an origin of its own that creates the iframe on demand and times it. */
async function hostPage(): Promise<{ origin: string; close(): Promise<void> }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>CRM</title><script>
      window.open_frame = (src, until) => new Promise((resolve) => {
        const started = performance.now();
        const frame = document.createElement('iframe');
        const done = () => { resolve(performance.now() - started); frame.remove(); };
        if (until === 'load') frame.addEventListener('load', done, { once: true });
        else addEventListener('message', function ready(e) { if (e.data && e.data.type === 'ready') { removeEventListener('message', ready); done(); } });
        frame.src = src;
        document.body.append(frame);
      });
    </script>`);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function loadTimes(): Promise<{ frame: number; bare: number }> {
  const bench = await startBenchGateway({ tokens: 1 });
  const token = bench.tokens[0]!;
  const host = await hostPage();
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
  try {
    await callOrThrow(bench.baseURL, 'PUT', '/v2/embedding/origins', token, { origins: [host.origin] });
    const page = await browser.newPage();
    await page.goto(host.origin);
    const frame: number[] = [];
    const bare: number[] = [];
    for (let i = 0; i < loads + 2; i++) {
      const link = await callOrThrow<{ url: string }>(bench.baseURL, 'POST', '/v2/iframe-links/chats', token, { user: { id: 'bench' }, scope: 'global' });
      const openFrame = (src: string, until: string) => page.evaluate(([s, u]) => (window as unknown as { open_frame(s: string, u: string): Promise<number> }).open_frame(s!, u!), [src, until]);
      const f = await openFrame(link.url, 'ready');
      const b = await openFrame(`${bench.baseURL}/healthz`, 'load');
      // The first loads fill the browser's cache as a returning agent's would be.
      if (i >= 2) {
        frame.push(f);
        bare.push(b);
      }
    }
    return { frame: median(frame), bare: median(bare) };
  } finally {
    await browser.close();
    await host.close();
    await bench.cleanup();
  }
}

const assets = await initialAssets();
console.log(`widget: initial JS+CSS ${assets.files.join(', ')}: ${(assets.rawBytes / 1024).toFixed(1)} KB raw, ${(assets.gzipBytes / 1024).toFixed(1)} KB gzipped`);
const frame: number[] = [];
const bare: number[] = [];
for (let run = 1; run <= runs; run++) {
  const t = await loadTimes();
  frame.push(t.frame);
  bare.push(t.bare);
  console.log(`  run ${run}: frame → ready ${t.frame.toFixed(1)} ms (median of ${loads}), bare page load ${t.bare.toFixed(1)} ms`);
}
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
    ours: median(frame),
    baseline: median(bare),
    baselineName: 'iframe of a bare gateway page',
    ratio: median(frame) / median(bare),
    budget: null,
    met: null,
    runs,
    details: { loads_per_run: loads },
  },
];
console.log(`frame → ready ${median(frame).toFixed(1)} ms against ${median(bare).toFixed(1)} ms for a bare page (×${(median(frame) / median(bare)).toFixed(2)})`);
await reportRows(rows);
