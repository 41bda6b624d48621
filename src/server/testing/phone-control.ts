import type { IncomingMessage, RequestListener } from 'node:http';
import type { FakeUser, TelegramAccountFake } from './telegram-account-fake.ts';
import type { FakeWaLibrary } from './whatsapp-personal-fake.ts';

/**
 * What an end-to-end test does as the account's phone, over loopback HTTP, to the fakes a personal-accounts gateway
 * runs on (personal-accounts-gateway.ts). Every action is on the socket the WhatsApp driver opened last, and on the
 * Telegram client the driver made last: a test connects one channel at a time.
 *
 * - `GET /state`: `{ whatsapp: { sockets, listening, pairing_codes }, telegram: { login_tokens } }`: what the drivers
 *   asked for, and whether the driver listens to its last socket yet (a QR emitted before is lost)
 * - `POST /whatsapp/qr` `{ qr }`: WhatsApp issues a new QR
 * - `POST /whatsapp/link` `{ phone, name }`: the phone scanned, or confirmed the pairing code
 * - `POST /whatsapp/synced`: WhatsApp finished sending what it held
 * - `POST /telegram/password` `{ password }`: the account's two-factor password (null: none)
 * - `POST /telegram/scan`: the account's phone scans the QR
 * - `POST /telegram/customer/writes` `{ user, text }`: a customer (`FakeUser`) writes to the account; answers `{ message_id }`
 * - `POST /telegram/customer/reacts` `{ user_id, message_id, emoji }`: they react to a message (`emoji` null: take it back)
 * - `POST /telegram/customer/typing` `{ user_id, stopped }`: they type in their chat with the account (or stop)
 */
export function phoneControlRoutes(whatsapp: FakeWaLibrary, telegram: TelegramAccountFake): RequestListener {
  const routes: Record<string, (body: Record<string, unknown>) => unknown> = {
    'GET /state': () => ({
      whatsapp: {
        sockets: whatsapp.sockets.length,
        listening: whatsapp.sockets.at(-1)?.handlers.has('connection.update') ?? false,
        pairing_codes: whatsapp.sockets.at(-1)?.pairingCodes ?? [],
      },
      telegram: { login_tokens: telegram.calls.filter((c) => c._ === 'auth.exportLoginToken').length },
    }),
    'POST /whatsapp/qr': ({ qr }) => whatsapp.last().emit('connection.update', { qr: String(qr) }),
    'POST /whatsapp/link': ({ phone, name }) => whatsapp.last().link(String(phone), String(name)),
    'POST /whatsapp/synced': () => whatsapp.last().emit('connection.update', { receivedPendingNotifications: true }),
    'POST /telegram/password': ({ password }) => telegram.setPassword(typeof password === 'string' ? password : null),
    'POST /telegram/scan': () => telegram.scan(),
    'POST /telegram/customer/writes': ({ user, text }) => {
      telegram.addUser(user as FakeUser);
      return { message_id: telegram.customerWrites((user as FakeUser).id, String(text)) };
    },
    'POST /telegram/customer/reacts': ({ user_id, message_id, emoji }) => telegram.customerReacts(Number(user_id), Number(message_id), typeof emoji === 'string' ? emoji : null),
    'POST /telegram/customer/typing': ({ user_id, stopped }) => telegram.customerTyping(Number(user_id), stopped ? 'sendMessageCancelAction' : 'sendMessageTypingAction'),
  };
  return (req, res) => {
    void (async () => {
      const route = routes[`${req.method} ${req.url}`];
      if (!route) return void res.writeHead(404).end();
      try {
        const answer = route(await jsonBody(req)) ?? { done: true };
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
      } catch (err) {
        res.writeHead(409, { 'content-type': 'text/plain' }).end(String(err));
      }
    })();
  };
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  let text = '';
  for await (const chunk of req) text += String(chunk);
  return text ? (JSON.parse(text) as Record<string, unknown>) : {};
}
