import { Type, type Static } from 'typebox';

/** Webhook event names of the interface ("Event names"). */
export const eventNames = [
  'message.add',
  'message.status_update',
  'message.delete',
  'message.edit',
  'waba_template.status_update',
  'channel.status_update',
  'channel.create',
  'channel.delete',
  'channel.qr_update',
  'channel.waba_tier_update',
  'group_chat.memberships_update',
  'group_chat.update',
  'messages_dump.status_update',
  // Beside the interface's: the frame's agent asked the CRM to create a contact or a deal.
  'crm_entities.contact_add',
  'crm_entities.deal_add',
  // Beside the interface's: an emoji reaction to a message was set or taken back (docs/webhooks.md, docs/decisions.md).
  'message.reaction',
] as const;
export type EventName = (typeof eventNames)[number];

/** Accepted in subscriptions as a deprecated alias of channel.status_update (docs/decisions.md). */
export const deprecatedEventAliases = { 'channel.update': 'channel.status_update' } as const satisfies Record<string, EventName>;

export const SubscribableEventName = Type.Enum([...eventNames, ...(Object.keys(deprecatedEventAliases) as (keyof typeof deprecatedEventAliases)[])], {
  description: 'Event name. `channel.update` is a deprecated alias of `channel.status_update`.',
});

const subscribable: ReadonlySet<string> = new Set([...eventNames, ...Object.keys(deprecatedEventAliases)]);
export const isSubscribableEvent = (name: string): boolean => subscribable.has(name);

/** An event name as a subscription call gives it: names the gateway does not know are refused one by one. */
export const RequestedEventName = Type.String({
  minLength: 1,
  maxLength: 200,
  description: `Event name: ${[...subscribable].join(', ')}. \`channel.update\` is a deprecated alias of \`channel.status_update\`. An unknown name is refused on its own (listed in \`meta.refused\`) while the others are subscribed.`,
});

/** The body of every webhook POST. */
export const WebhookEnvelope = Type.Object({
  event: Type.String(),
  data: Type.Array(Type.Unknown()),
  meta: Type.Object({
    idempotency_key: Type.String({ format: 'uuid' }),
    timestamp: Type.Integer(),
  }),
});
export type WebhookEnvelope = Static<typeof WebhookEnvelope>;
