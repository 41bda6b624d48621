import { Check as checkFrameToHost } from 'virtual:bridge-check/frame-to-host';
import { Check as checkHostToFrame } from 'virtual:bridge-check/host-to-frame';
import type { FrameToHostMessage, HostToFrameMessage, WzMessage } from '../../contract/bridge.ts';
import { bridgeProtocol } from '../../contract/bridge-protocol.ts';

// The contract's schemas compiled into plain checks when the widget is built (bridge-checks.build.ts).
const isHostToFrame = checkHostToFrame as (value: unknown) => value is HostToFrameMessage;
const isFrameToHost = checkFrameToHost as (value: unknown) => value is FrameToHostMessage;

/** The parts of `window` the bridge uses, so it can run against a stand-in in tests. */
export interface BridgeWindow {
  parent: { postMessage(message: unknown, targetOrigin: string): void };
  addEventListener(type: 'message', listener: (event: BridgeMessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: BridgeMessageEvent) => void): void;
}

export interface BridgeMessageEvent {
  origin: string;
  source: unknown;
  data: unknown;
}

/** A frame → host message without its protocol tag. */
export type OutgoingMessage = FrameToHostMessage extends infer M ? (M extends { protocol: string } ? Omit<M, 'protocol'> : never) : never;

export interface HostBridge {
  /** Posts to the host page, to its exact origin only. */
  post(message: OutgoingMessage): void;
  close(): void;
}

/** The original service's form of a deal message (see WzMessage in the contract), or null for every other message. */
export function wzFormOf(message: OutgoingMessage): WzMessage | null {
  if (message.type !== 'deal_to_create' && message.type !== 'deal_opened') return null;
  const { chat_type, chat_id, channel_id, user_id } = message.payload;
  const data = { chatType: chat_type, chatId: chat_id, channelId: channel_id, userId: user_id };
  if (message.type === 'deal_to_create') return { type: 'WZ_CREATE_ENTITY', data };
  const { id, name, uri, closed } = message.payload.deal;
  return { type: 'WZ_OPEN_ENTITY', data: { ...data, entity: { id, name, link: uri, closed } } };
}

/** True for `scheme://host[:port]` exactly as a browser reports an origin (no `*`, no path). */
export function isExactOrigin(origin: string): boolean {
  try {
    return origin !== 'null' && new URL(origin).origin === origin;
  } catch {
    return false;
  }
}

/**
 * Which origin the host page has. The frame page is served with `frame-ancestors` of the account's allowed
 * origins, so the browser rendered it only inside one of them; of those, the parent's own is told by
 * `location.ancestorOrigins` (Chromium, WebKit) or the referrer. With `allowed` given it must be one of them.
 */
export function resolveHostOrigin(input: {
  allowed: readonly string[] | null;
  ancestorOrigins?: ArrayLike<string> | undefined;
  referrer?: string | undefined;
}): string | null {
  const candidates: string[] = [];
  const parent = input.ancestorOrigins?.[0];
  if (parent) candidates.push(parent);
  if (input.referrer) {
    try {
      candidates.push(new URL(input.referrer).origin);
    } catch {
      // An unparsable referrer tells nothing.
    }
  }
  for (const candidate of candidates) {
    if (isExactOrigin(candidate) && (input.allowed === null || input.allowed.includes(candidate))) return candidate;
  }
  // With a single allowed origin the browser could only have rendered the frame inside it.
  return input.allowed?.length === 1 && candidates.length === 0 ? input.allowed[0]! : null;
}

/**
 * The frame's side of the host bridge. It posts only to `hostOrigin`, and hands on only messages that come
 * from that origin, from the parent window itself, and match one of the host → frame shapes; everything else
 * is dropped without a word.
 */
export function createHostBridge(options: {
  window: BridgeWindow;
  hostOrigin: string;
  onMessage(message: HostToFrameMessage): void;
}): HostBridge {
  const { window: win, hostOrigin } = options;
  if (!isExactOrigin(hostOrigin)) throw new Error(`the host bridge needs an exact origin, got ${JSON.stringify(hostOrigin)}`);
  const listener = (event: BridgeMessageEvent) => {
    if (event.origin !== hostOrigin || event.source !== win.parent) return;
    if (!isHostToFrame(event.data)) return;
    options.onMessage(event.data);
  };
  win.addEventListener('message', listener);
  return {
    post(message) {
      const tagged = { protocol: bridgeProtocol, ...message };
      if (!isFrameToHost(tagged)) throw new Error(`not a bridge message: ${JSON.stringify(message)}`);
      win.parent.postMessage(tagged, hostOrigin);
      // A v3 CRM listens for the original service's names instead of the protocol's.
      const wz = wzFormOf(message);
      if (wz) win.parent.postMessage(wz, hostOrigin);
    },
    close() {
      win.removeEventListener('message', listener);
    },
  };
}
