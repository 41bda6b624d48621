import { enableCompileCache } from 'node:module';
import { ALLOCATOR_ENV } from './allocator-env.ts';

/**
 * Preloaded by `npm start` (`node --import`), before the gateway's ~2,000 modules.
 *
 * The C allocator's settings (see allocator-env.ts) are read only when a process starts: where they are missing,
 * the process starts again in place (execve: the same process id, nothing loaded yet) with them added. A setting
 * the environment already has is kept. Only on Linux, whose C library reads them.
 */
const missing = Object.keys(ALLOCATOR_ENV).some((name) => process.env[name] === undefined);
if (missing && process.platform === 'linux' && process.execve) {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...ALLOCATOR_ENV, ...process.env });
}

/**
 * Node keeps the modules' compiled code (in the system's temporary directory), so a restart does not compile them
 * again. Where it cannot keep it, Node says so in the returned status and the start goes on as before.
 */
enableCompileCache();
