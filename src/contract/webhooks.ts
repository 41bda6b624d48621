import { Type, type Static } from 'typebox';
import { RequestedEventName } from './events.ts';
import { Meta } from './envelope.ts';

export const WebhookStatus = Type.Enum(['active', 'disabled'], {
  description: '`disabled` after the endpoint answered 410 Gone or kept failing for 5 days; a PATCH of the subscription enables it again.',
});
export type WebhookStatus = Static<typeof WebhookStatus>;

/** The interface's subscription (id, url, event) plus why delivery stopped, when it did. */
export const WebhookSubscription = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  event: Type.String(),
  status: WebhookStatus,
  disabled_reason: Type.Union([Type.String(), Type.Null()], { description: 'Why delivery was stopped; null while active.' }),
});
export type WebhookSubscription = Static<typeof WebhookSubscription>;

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS address that receives the events.' });

export const CreateWebhooksBody = Type.Object(
  {
    data: Type.Array(Type.Object({ url: Url, event: RequestedEventName }, { additionalProperties: false }), { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type CreateWebhooksBody = Static<typeof CreateWebhooksBody>;

export const UpdateWebhooksBody = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        { id: Type.String({ format: 'uuid' }), url: Url, event: RequestedEventName },
        { additionalProperties: false },
      ),
      { minItems: 1 },
    ),
  },
  { additionalProperties: false },
);
export type UpdateWebhooksBody = Static<typeof UpdateWebhooksBody>;

export const DeleteWebhooksBody = Type.Object(
  {
    data: Type.Array(Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }), { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type DeleteWebhooksBody = Static<typeof DeleteWebhooksBody>;

/** The account's signing secret (Standard Webhooks): `whsec_` followed by base64 of 32 random bytes. */
export const SigningSecret = Type.Object({
  secret: Type.String({ pattern: '^whsec_[A-Za-z0-9+/=]+$' }),
});
export type SigningSecret = Static<typeof SigningSecret>;

/** Account-wide delivery settings. */
export const WebhookSettings = Type.Object(
  {
    batching: Type.Boolean({
      description:
        'When true, events of one name for one subscription that are ready at the same time may share one POST (up to 100 items in `data`, at most one per chat, in order). `meta.idempotency_key` then identifies the batch.',
    }),
  },
  { additionalProperties: false },
);
export type WebhookSettings = Static<typeof WebhookSettings>;

export const WebhookIdParams = Type.Object({ webhook_id: Type.String({ format: 'uuid' }) });

export const DeliveryStatus = Type.Enum(['pending', 'sending', 'delivered', 'failed'], {
  description: '`pending` waits for its turn or its next attempt; `failed` gave up (every retry used, or the subscription was disabled).',
});
export type DeliveryStatus = Static<typeof DeliveryStatus>;

const NullableDateTime = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

/** One event on its way to one subscription. */
export const WebhookDelivery = Type.Object({
  event_id: Type.String({ format: 'uuid', description: 'The event id: `meta.idempotency_key` and `webhook-id` of an unbatched POST.' }),
  event: Type.String(),
  status: DeliveryStatus,
  attempts: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  next_attempt_at: NullableDateTime,
  delivered_at: NullableDateTime,
  last_status_code: Type.Union([Type.Integer(), Type.Null()]),
  last_error: Type.Union([Type.String(), Type.Null()]),
});
export type WebhookDelivery = Static<typeof WebhookDelivery>;

/** One POST to the subscription's URL. */
export const WebhookAttempt = Type.Object({
  id: Type.String({ format: 'uuid' }),
  idempotency_key: Type.String({ format: 'uuid' }),
  event: Type.String(),
  event_ids: Type.Array(Type.String({ format: 'uuid' })),
  attempted_at: Type.String({ format: 'date-time' }),
  status_code: Type.Union([Type.Integer(), Type.Null()], { description: 'Null when no HTTP answer came (timeout, refused address, network error).' }),
  latency_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  outcome: Type.Enum(['delivered', 'retry', 'failed', 'disabled']),
});
export type WebhookAttempt = Static<typeof WebhookAttempt>;

export const DeliveryLogQuery = Type.Object(
  {
    status: Type.Optional(DeliveryStatus),
    before: Type.Optional(Type.String({ format: 'date-time', description: 'Only entries older than this (paging backwards).' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);
export type DeliveryLogQuery = Static<typeof DeliveryLogQuery>;

export const AttemptLogQuery = Type.Object(
  {
    before: Type.Optional(Type.String({ format: 'date-time' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
  },
  { additionalProperties: false },
);
export type AttemptLogQuery = Static<typeof AttemptLogQuery>;

export const RedeliverBody = Type.Union(
  [
    Type.Object({ event_id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
    Type.Object(
      { failed_since: Type.String({ format: 'date-time', description: 'Every failed delivery of an event recorded at or after this time.' }) },
      { additionalProperties: false },
    ),
  ],
  { description: 'Either one event, or everything that failed since a time.' },
);
export type RedeliverBody = Static<typeof RedeliverBody>;

export const Redelivery = Type.Object({
  event_ids: Type.Array(Type.String({ format: 'uuid' }), { description: 'Events queued again, in delivery order.' }),
});
export type Redelivery = Static<typeof Redelivery>;

/** An item of a subscription call that was not applied, and why; the call's other items were. */
export const RefusedSubscription = Type.Object({
  index: Type.Integer({ description: 'Position of the item in `data`.' }),
  event: Type.String(),
  reason: Type.String(),
});
export type RefusedSubscription = Static<typeof RefusedSubscription>;

/** The answer of POST and PATCH /v2/webhooks: the subscriptions, and in `meta.refused` the items naming unknown events. */
export const SubscriptionsAnswer = Type.Object(
  {
    data: Type.Array(WebhookSubscription),
    meta: Type.Object({ ...Meta.properties, refused: Type.Optional(Type.Array(RefusedSubscription)) }),
  },
  { additionalProperties: false },
);
