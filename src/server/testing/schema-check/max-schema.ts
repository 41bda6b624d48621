import type { ValidateFunction } from 'ajv';
import { cached, loadFixture, type Definitions } from './fixture.ts';

/**
 * MAX's Bot API as its official client, @maxhub/max-bot-api, types it (schemas/max.json, see the README there): the
 * body of each request the max driver makes, each answer by route, a refusal (`{code, message}`) and an update.
 * The client's buttons carry no `intent`, so a request with one fails.
 */

/**
 * Allowed deviation: the client's answer to a press (`POST /answers`) has only `message`; MAX's API reference
 * (dev.max.ru, `CallbackAnswer`) has a one-time `notification` too, which the driver sends.
 */
function answerNotification(definitions: Definitions): void {
  const body = definitions.MaxBody_POST_answers!;
  body.properties = { ...body.properties, notification: { type: ['string', 'null'] } };
}

const fixture = loadFixture('max.json', answerNotification);
export const MAX_SCHEMA_SOURCE = fixture.source;
const compiled = cached();

/** A call's route as the fixture names it: `POST /messages` → `POST_messages`, `GET /videos/abc` → `GET_videos`. */
const routeOf = (method: string, path: string) => `${method.toUpperCase()}_${path.split('/').filter(Boolean)[0] ?? ''}`;
const validator = (name: string) => compiled(name, () => (fixture.has(name) ? fixture.compile({ $ref: fixture.ref(name) }) : undefined));

/** The body of a request; undefined for a route that takes none (or the client does not describe). */
export const maxRequest = (method: string, path: string): ValidateFunction | undefined => validator(`MaxBody_${routeOf(method, path)}`);
/** MAX's answer: as the client types the route's, a refusal as its `ErrorResponse`. */
export const maxAnswer = (method: string, path: string, status: number): ValidateFunction | undefined => validator(status >= 400 ? 'MaxError' : `MaxAnswer_${routeOf(method, path)}`);
/** An update MAX posts to a subscription. */
export const maxUpdate = (): ValidateFunction | undefined => validator('MaxUpdate');
