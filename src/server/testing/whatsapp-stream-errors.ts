import type { WaNode } from './whatsapp-server-hooks.ts';

/**
 * What WhatsApp's server writes when it ends a session's stream, node for node, and what the real library (Baileys 7,
 * `lib/Socket/socket.js`) makes of it. A `<stream:error>` is read by `getErrorCodeFromStreamError`: its `code`
 * attribute is the status; without one, a first child named `conflict` is 440 and any other child (or none) is 500,
 * "badSession". A `<failure>` (WhatsApp's answer to the login instead of `<success>`) carries the status in `reason`;
 * without one the library reports 500 as well. Every one of them ends the connection (`end(new Boom(...))`).
 */
export const streamErrors = {
  /** A child the library does not know (WhatsApp sends `xml-not-well-formed` and others): 500, "Stream Errored (xml-not-well-formed)". */
  unknownChild: { tag: 'stream:error', attrs: {}, content: [{ tag: 'xml-not-well-formed', attrs: {} }] },
  /** Another connection of the same device logged in: 440, connectionReplaced. */
  replaced: { tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] },
  /** Asked right after a scan, and at times of a running session: 515, restartRequired. */
  restartRequired: { tag: 'stream:error', attrs: { code: '515' } },
  /** WhatsApp's side is unavailable for the moment: 503, unavailableService. */
  unavailable: { tag: 'stream:error', attrs: { code: '503' } },
  /** The phone removed the linked device: 401, loggedOut (the one end after which the keys are worthless). */
  deviceRemoved: { tag: 'stream:error', attrs: { code: '401' }, content: [{ tag: 'conflict', attrs: { type: 'device_removed' } }] },
} satisfies Record<string, WaNode>;

export type StreamErrorKind = keyof typeof streamErrors;

/** WhatsApp's answers to the login in place of `<success>`. */
export const loginFailures = {
  /** No reason given: the library reports 500, "Connection Failure" (what its users meet every few days). */
  withoutReason: { tag: 'failure', attrs: { location: 'frc' } },
  /** The device was logged out: 401. */
  loggedOut: { tag: 'failure', attrs: { reason: '401', location: 'frc' } },
} satisfies Record<string, WaNode>;

export type LoginFailureKind = keyof typeof loginFailures;
