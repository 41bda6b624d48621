import type { FastifyInstance } from 'fastify';
import type { PgBoss } from 'pg-boss';
import type { RealtimeHub } from './bff/index.ts';
import type { HookRefreshPass } from './core/channels/hook-refresh.ts';
import type { ChannelDeps } from './core/channels/ports.ts';
import type { EventSink } from './core/events/dispatch-event.ts';
import type { ExportDeps } from './core/exports/ports.ts';
import type { MessageDeps, MessagingDriver } from './core/messages/ports.ts';
import type { Clock, Store } from './core/ports.ts';
import type { SessionLoop } from './core/sessions/runner.ts';
import type { SessionDriver } from './core/sessions/ports.ts';
import type { WebhookOverrides } from './gateway-webhooks.ts';
import type { WindowCounter } from './http/rate-limit/window-counter.ts';
import type { Database, DatabaseTarget } from './storage/database.ts';
import type { CallLimits } from './transports/call-pacer.ts';
import type { TgapiClientFactory } from './transports/tgapi/mtcute-client.ts';
import type { Backoff, Liveness } from './transports/whatsapp/liveness.ts';
import type { Timers } from './transports/whatsapp/timers.ts';
import type { WaLibrary } from './transports/whatsapp/wa-socket.ts';

export type { WebhookOverrides };

/** What tests and tools may put in place of the gateway's own parts. */
export interface GatewayOverrides {
  clock?: Clock;
  /** Where state lives; defaults to DATABASE_URL, else PGlite in DATA_DIR. */
  database?: DatabaseTarget;
  rateLimitCounter?: WindowCounter;
  logger?: boolean | object;
  widgetDir?: string | null;
  /** Replaces the sandbox's messaging side (tests of failures the network cannot produce). */
  messagingDriver?: MessagingDriver;
  /** Extra consumers of the event stream (webhooks and realtime register here as they land). */
  sinks?: EventSink[];
  webhooks?: WebhookOverrides;
  /** Avito's pace for the live driver, where a test must not wait for the real one. */
  avitoLimits?: CallLimits;
  /** VK's pace, where a test must not wait for the real one. */
  vkLimits?: CallLimits;
  /** Long-lived sessions run beside (or instead of) the live drivers' (tests of the session leases). */
  sessionDrivers?: SessionDriver[];
  /** Makes personal Telegram accounts' clients (tests: the library answered by a fake), in place of TELEGRAM_API_ID's. */
  tgapiClients?: TgapiClientFactory;
  /** Personal WhatsApp: the library behind the adapter (a fake in tests), and how lost connections are tried again. */
  whatsapp?: { library?: WaLibrary; backoff?: Backoff; liveness?: Liveness; ackWaitMs?: number; random?: () => number; timers?: Timers };
}

export interface Gateway {
  app: FastifyInstance;
  store: Store;
  boss: PgBoss;
  database: Database;
  /** The channel use-cases' dependencies, for the BFF and for tests that drive timers. */
  channels: ChannelDeps;
  messages: MessageDeps;
  /** The export use-cases' dependencies (files under DATA_DIR/exports, signed links). */
  exports: ExportDeps;
  partnerKey: { value: string; created: boolean; path: string | null };
  /** Encrypts channel credentials and signs links. */
  secretKey: string;
  /** The frames' socket.io hub (a sink of the event stream). */
  realtime: RealtimeHub;
  /** Whether this process has handed the event at a stream position to its sinks (or given up on it). */
  streamPassed(position: number): boolean;
  webhooks: {
    /** Makes the delivery loop look for due deliveries (retries that came due, leases that ran out) now. */
    sweep(): Promise<void>;
  };
  /** Makes the send loop look for due sends (retries that came due, leases that ran out) now. */
  wakeSends(): void;
  /** The long-lived sessions this process runs (personal accounts' connections), when it runs any. */
  sessions: SessionLoop | null;
  botHooks: {
    /** The pass of the live bots' hook refresh under way (the start-up one, right after start), or a new one. */
    refresh(): Promise<HookRefreshPass>;
  };
  listen(): Promise<string>;
  /** Stops taking requests, lets running jobs finish, then closes the database. Idempotent. */
  stop(): Promise<void>;
}
