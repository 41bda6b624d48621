import { validationError } from '../errors.ts';
import type { ChatListPosition } from './ports.ts';

/**
 * Cursors are opaque to the frame: base64url of the keyset position. Anything that does not decode to a
 * well-formed position is a 400 naming the parameter, never a database error.
 */
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decode(cursor: string): unknown {
  try {
    return JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    return undefined;
  }
}

const badCursor = (field: string) => validationError([{ field, message: 'is not a cursor this list returned' }]);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const SEQ = /^[1-9][0-9]{0,18}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

/** A UTC instant with microseconds, as the store writes it into cursors, and a real date (no 31 February). */
function isInstant(text: string): boolean {
  if (!INSTANT.test(text)) return false;
  const ms = Date.parse(text.slice(0, 23) + 'Z');
  return !Number.isNaN(ms) && new Date(ms).toISOString().slice(0, 23) === text.slice(0, 23);
}

export const chatCursor = (p: ChatListPosition): string => encode(['c', p.unanswered ? 1 : 0, p.activity, p.id]);

export function parseChatCursor(cursor: string, field: string): ChatListPosition {
  const v = decode(cursor);
  if (!Array.isArray(v) || v.length !== 4 || v[0] !== 'c') throw badCursor(field);
  const [, unanswered, activity, id] = v as unknown[];
  if ((unanswered !== 0 && unanswered !== 1) || typeof activity !== 'string' || !isInstant(activity)) throw badCursor(field);
  if (typeof id !== 'string' || !UUID.test(id)) throw badCursor(field);
  return { unanswered: unanswered === 1, activity, id };
}

export const messageCursor = (seq: string): string => encode(['m', seq]);

export function parseMessageCursor(cursor: string, field: string): string {
  const v = decode(cursor);
  if (!Array.isArray(v) || v.length !== 2 || v[0] !== 'm' || typeof v[1] !== 'string' || !SEQ.test(v[1])) throw badCursor(field);
  return v[1];
}
