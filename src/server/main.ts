import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { systemClock } from './core/ports.ts';
import { ensureDemoAccount } from './demo.ts';
import { createGateway } from './gateway.ts';
import { checkDataDir, DataDirUnusable } from './storage/data-dir-check.ts';

function readConfig(): Config {
  try {
    return loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
}

/** An unusable data directory, found now or by the embedded database as it opens, is one line and exit code 1. */
async function startGateway(config: Config) {
  try {
    await checkDataDir(config.dataDir);
    return await createGateway(config);
  } catch (err) {
    if (err instanceof DataDirUnusable) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

const config = readConfig();
const gateway = await startGateway(config);
const log = gateway.app.log;

closeWithGrace({ delay: config.shutdownTimeoutMs + 5_000 }, async ({ signal, err }) => {
  if (err) log.error({ err }, 'stopping after an unexpected error');
  else log.info({ signal }, 'stopping');
  await gateway.stop();
});

const address = await gateway.listen();
const banner: string[] = [`Messaging gateway listening on ${address}`, `  API reference: ${config.publicUrl}/docs`];
if (gateway.partnerKey.created || !config.production) {
  const where = gateway.partnerKey.path ? ` (kept in ${gateway.partnerKey.path})` : '';
  banner.push(`  Partner key${where}: ${gateway.partnerKey.value}`);
}
if (!config.production) {
  const demo = await ensureDemoAccount({ store: gateway.store, clock: systemClock }, config.dataDir);
  if (demo) banner.push(`  Demo account ${demo.account_id}, client token: ${demo.token}`);
}
console.log(banner.join('\n'));
