import { enableCompileCache } from 'node:module';

/**
 * Preloaded by `npm start` (`node --import`), before the gateway's ~2,000 modules: Node keeps their compiled code
 * (in the system's temporary directory), so a restart does not compile them again. Where it cannot keep it, Node
 * says so in the returned status and the start goes on as before.
 */
enableCompileCache();
