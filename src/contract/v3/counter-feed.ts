import { Type, type Static } from 'typebox';

/**
 * The unanswered counter's socket.io feed, as the original service's v3 clients use it: socket.io at `/ws-counters/`
 * on the gateway's own host (the original asks a lookup service for a host; here it is the base URL's host), the
 * client emits `counterConnecting` with its API key and the CRM user id, then hears `counterUpdate` once at once and
 * again whenever that user's counter changes.
 */
export const counterFeedPath = '/ws-counters/';

export const CounterConnecting = Type.Object({
  type: Type.Literal('api_v3'),
  apiKey: Type.String({ minLength: 1, maxLength: 512 }),
  userId: Type.String({ minLength: 1, maxLength: 200 }),
});
export type CounterConnecting = Static<typeof CounterConnecting>;

/** `counter` and `counterV2` carry the same number: the published notes name either (their §16.20). */
export interface CounterUpdate {
  counter: number;
  counterV2: number;
  type: 'red' | 'grey' | null;
  lastMsgDateTime: string | null;
}

/** Why a connection was refused; the feed disconnects after sending it. */
export interface CounterError {
  error: 'UNAUTHORIZED' | 'VALIDATION_ERROR' | 'TOO_MANY_REQUESTS';
  description: string;
}

export interface CounterFeedClientEvents {
  counterConnecting: (hello: CounterConnecting) => void;
}

export interface CounterFeedServerEvents {
  counterUpdate: (update: CounterUpdate) => void;
  counterError: (refusal: CounterError) => void;
}
