import type { Keyboard } from '../../../../contract/messages.ts';

/**
 * What the gateway said it dropped or left out of a keyboard, by the keyboard sent: the send sets it before it
 * resolves, so that the composer that sent the buttons can say so. A module of its own: the send loads with the
 * frame, the composer's buttons panel only on first use.
 */
export const keyboardWarnings = new WeakMap<Keyboard, string[]>();
