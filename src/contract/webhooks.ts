import { Type, type Static } from 'typebox';
import { SubscribableEventName } from './events.ts';

export const WebhookSubscription = Type.Object({
  id: Type.String({ format: 'uuid' }),
  url: Type.String(),
  event: Type.String(),
});
export type WebhookSubscription = Static<typeof WebhookSubscription>;

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'HTTPS address that receives the events.' });

export const CreateWebhooksBody = Type.Object(
  {
    data: Type.Array(Type.Object({ url: Url, event: SubscribableEventName }, { additionalProperties: false }), { minItems: 1 }),
  },
  { additionalProperties: false },
);
export type CreateWebhooksBody = Static<typeof CreateWebhooksBody>;

export const UpdateWebhooksBody = Type.Object(
  {
    data: Type.Array(
      Type.Object(
        { id: Type.String({ format: 'uuid' }), url: Url, event: SubscribableEventName },
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
