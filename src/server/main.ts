import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig, type Config } from './config.ts';
import { systemClock } from './core/ports.ts';
import { ensureDemoAccount, type DemoAccount } from './demo/account.ts';
import { mountDemoCrm } from './demo/routes.ts';
import { createGateway, type GatewayOverrides } from './gateway.ts';
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
async function startGateway(config: Config, overrides: GatewayOverrides) {
  try {
    await checkDataDir(config.dataDir);
    return await createGateway(config, overrides);
  } catch (err) {
    if (err instanceof DataDirUnusable) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
}

/**
 * Runs the gateway as `npm start` does: the environment's configuration, a graceful stop on signals, the demo CRM
 * outside production, and the banner. `overrides` serve a test's gateway process (fakes in place of the platforms).
 */
export async function serve(overrides: GatewayOverrides = {}): Promise<void> {
  const config = readConfig();
  const gateway = await startGateway(config, overrides);
  const log = gateway.app.log;

  closeWithGrace({ delay: config.shutdownTimeoutMs + 5_000 }, async ({ signal, err }) => {
    if (err) log.error({ err }, 'stopping after an unexpected error');
    else log.info({ signal }, 'stopping');
    await gateway.stop();
  });

  // Outside production the first start creates a demo account, and `/` is a demo CRM that embeds its frames.
  let demo: Promise<DemoAccount | null> | null = null;
  const demoAccount = () => (demo ??= ensureDemoAccount({ store: gateway.store, clock: systemClock }, config.dataDir));
  const sandbox = config.transportMode === 'sandbox';
  const demoCrm = config.production ? null : await mountDemoCrm(gateway.app, { clock: systemClock, publicUrl: config.publicUrl, sandbox, account: demoAccount });

  const address = await gateway.listen();
  demoCrm?.listening(address);
  const account = config.production ? null : await demoAccount();

  // The first line is where a newcomer goes; the rest is for the API.
  const banner: string[] = [];
  if (account) banner.push(`Demo CRM: ${config.publicUrl}/`);
  if (sandbox) banner.push(`  Sandbox phone: ${config.publicUrl}/sandbox/phone/`);
  banner.push(`  API reference: ${config.publicUrl}/docs`);
  if (gateway.partnerKey.created || !config.production) {
    const where = gateway.partnerKey.path ? ` (kept in ${gateway.partnerKey.path})` : '';
    banner.push(`  Partner key${where}: ${gateway.partnerKey.value}`);
  }
  if (account) banner.push(`  Demo account ${account.account_id}, client token: ${account.token}`);
  banner.push(`Messaging gateway listening on ${address}`);
  console.log(banner.join('\n'));
  collectStartGarbage();
}

/**
 * What the start left behind (modules' set-up, migrations, the embedded database's first queries: ~20 MB) is
 * collected once, a few seconds after the gateway listens, rather than when V8 finds the process idle, a minute or
 * two later. Only when Node was started with `--expose-gc`, as `npm start` does.
 */
function collectStartGarbage() {
  const collect = (globalThis as { gc?: (options: { type: 'major'; flavor: 'last-resort' }) => void }).gc;
  // 'last-resort': V8 collects until nothing more goes and gives the freed pages back, as when memory runs short.
  if (collect) setTimeout(() => collect({ type: 'major', flavor: 'last-resort' }), START_GARBAGE_DELAY_MS).unref();
}
const START_GARBAGE_DELAY_MS = 5_000;

if (import.meta.main) await serve();
