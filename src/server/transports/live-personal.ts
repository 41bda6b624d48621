import type { Dispatcher } from 'undici';
import { systemClock } from '../core/ports.ts';
import { uploadLinks } from '../core/uploads/uploads.ts';
import type { CallPacer } from './call-pacer.ts';
import type { LiveDriverOptions } from './live-options.ts';
import { renderQr } from './qr-image.ts';
import { tgapiTransport, type TgapiTransport } from './tgapi/tgapi-transport.ts';
import { baileysInstalled, baileysLibrary } from './whatsapp/baileys-socket.ts';
import { whatsappPersonalTransport } from './whatsapp/transport.ts';

/**
 * Personal Telegram accounts (mtcute), where the gateway has a Telegram application and runs long-lived sessions;
 * null otherwise.
 */
export function personalTelegram(options: LiveDriverOptions, keyFor: (purpose: string) => Buffer, filesAgent: Dispatcher, pacer: CallPacer): TgapiTransport | null {
  if (!options.tgapi || !options.sessions) return null;
  return tgapiTransport({
    ...options.tgapi,
    publicUrl: options.publicUrl,
    linkKey: keyFor('tgapi-file-links/v1'),
    sessions: options.sessions,
    revoked: options.revoked,
    pacer,
    filesAgent,
    allowLoopbackFiles: options.allowLoopbackFiles ?? false,
  });
}

/**
 * Personal WhatsApp accounts (WhatsApp Web's protocol through the optional package baileys), where they are switched
 * on, sessions run, and the package is installed (or a test's library stands in for it); null otherwise.
 */
export function personalWhatsApp(options: LiveDriverOptions, filesAgent: Dispatcher) {
  const personal = options.whatsappPersonal;
  if (!personal || !options.sessions || !(personal.library || baileysInstalled())) return null;
  const clock = options.clock ?? systemClock;
  return whatsappPersonalTransport({
    library: personal.library ?? baileysLibrary(),
    wsUrl: personal.wsUrl,
    store: personal.store,
    clock,
    renderQr,
    // Customers' files are kept as uploads, never refused for the daily quota: what customers send is kept.
    uploads: { store: personal.store, clock, links: uploadLinks(options.secretKey, options.publicUrl), dailyLimitBytes: Number.POSITIVE_INFINITY },
    filesAgent,
    allowLoopbackFiles: options.allowLoopbackFiles ?? false,
    sessions: options.sessions,
    ...(personal.backoff ? { backoff: personal.backoff } : {}),
    ...(personal.liveness ? { liveness: personal.liveness } : {}),
    ...(personal.ackWaitMs ? { ackWaitMs: personal.ackWaitMs } : {}),
    ...(personal.random ? { random: personal.random } : {}),
    ...(personal.timers ? { timers: personal.timers } : {}),
    log: personal.log,
    ...(personal.note ? { note: personal.note } : {}),
  });
}
