/**
 * A gateway process for the end-to-end tests of personal accounts: started exactly as main.ts starts one (`serve`),
 * in live mode, with the live WhatsApp and Telegram-account drivers running over the fakes of their libraries
 * (`FakeWaLibrary`, and mtcute's real client answered by `telegramAccountFake`) instead of the networks.
 *
 * The test plays the phone through a small control server on loopback, whose address is printed before the banner
 * as `Phone control: http://127.0.0.1:<port>` (see `phoneControlRoutes` for what it does).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { registerHooks } from 'node:module';

// mtcute's test package imports the library's TL schema as JSON without the import attribute Node requires (vitest
// loads it inlined); the attribute is added here, for that one package's import, before anything loads it.
registerHooks({
  load(url, context, nextLoad) {
    if (url.endsWith('/@mtcute/core/tl/api-schema.json') && context.importAttributes.type !== 'json') {
      return nextLoad(url, { ...context, importAttributes: { ...context.importAttributes, type: 'json' } });
    }
    return nextLoad(url, context);
  },
});

const { serve } = await import('../main.ts');
const { FakeWaLibrary } = await import('./whatsapp-personal-fake.ts');
const { telegramAccountFake } = await import('./telegram-account-fake.ts');
const { phoneControlRoutes } = await import('./phone-control.ts');

/** The personal Telegram account every QR in this gateway is scanned with. */
const TELEGRAM_ACCOUNT = { id: 700100, firstName: 'Acme', lastName: 'Support', username: 'acme_support', phone: '79990001122' };

const whatsapp = new FakeWaLibrary();
const telegram = telegramAccountFake({ self: TELEGRAM_ACCOUNT, seed: 'e2e' });
const control = createServer(phoneControlRoutes(whatsapp, telegram));
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
console.log(`Phone control: http://127.0.0.1:${(control.address() as AddressInfo).port}`);

process.env.TRANSPORT_MODE = 'live';
process.env.WHATSAPP_PERSONAL = 'on';
// The control server must not keep a stopping gateway alive.
control.unref();
// The reconnects' waits are short: a test drops the connection at most once or twice.
await serve({ tgapiClients: telegram.clients, whatsapp: { library: whatsapp, backoff: { baseMs: 100, maxMs: 1_000 } } });
