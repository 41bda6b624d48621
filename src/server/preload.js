/**
 * Preloaded by `npm start` (`node --import`), before the gateway's modules. Plain JavaScript, so that Node's type
 * stripper is not loaded to read it.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { registerHooks, stripTypeScriptTypes } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import allocatorEnv from './allocator-env.json' with { type: 'json' };

/*
 * The C allocator's settings (why: allocator-env.ts) are read only when a process starts: where they are missing,
 * the process starts again in place (execve: the same process id, nothing loaded yet) with them added. A setting the
 * environment already has is kept. Only on Linux, whose C library reads them.
 */
const missing = Object.keys(allocatorEnv).some((name) => process.env[name] === undefined);
if (missing && process.platform === 'linux' && process.execve) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...allocatorEnv, ...process.env });
}

/*
 * The gateway's TypeScript, with its types stripped, is kept on disk by the hash of its source, and read from there
 * on the next start: Node's type stripper (WebAssembly) is then not loaded at all, which saves ~0.3 s of each start
 * and a few MB. Node's compile cache would save as much time, but the code it keeps for every function the previous
 * run compiled is loaded whole at each start and stays: ~13 MB of idle footprint (docs/benchmarks.md).
 */
const cacheDir = process.env.GATEWAY_STRIPPED_CACHE ?? join(tmpdir(), 'messaging-gateway-stripped', process.version);

/** The source with its types stripped, as Node strips them (positions kept); stripped once per source. */
function stripped(source) {
  const path = join(cacheDir, `${createHash('sha256').update(source).digest('base64url')}.js`);
  try {
    return readFileSync(path, 'utf8');
  } catch {
    // Node warns that the stripper's API is experimental; it is the same stripper Node runs on its own.
    const warn = process.emitWarning;
    process.emitWarning = () => {};
    let code;
    try {
      code = stripTypeScriptTypes(source, { mode: 'strip' });
    } finally {
      process.emitWarning = warn;
    }
    try {
      mkdirSync(cacheDir, { recursive: true });
      // Written whole under another name first: a process starting beside this one never reads half a file.
      const partial = `${path}.${process.pid}`;
      writeFileSync(partial, code);
      renameSync(partial, path);
    } catch {
      // Nowhere to keep it: stripped again on the next start.
    }
    return code;
  }
}

registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith('file:') || url.includes('/node_modules/') || !new URL(url).pathname.endsWith('.ts')) return nextLoad(url, context);
    return { format: 'module', source: stripped(readFileSync(fileURLToPath(url), 'utf8')), shortCircuit: true };
  },
});
