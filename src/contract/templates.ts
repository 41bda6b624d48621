import { Type, type Static } from 'typebox';

/**
 * Business-API (wapi) message templates: what GET /v2/templates lists and the sandbox creates and moderates.
 * Variables are `{{1}}`, `{{2}}`… in the header and body; a send fills them from `template.values` in order.
 */

export const templateStatuses = ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED'] as const;
export type TemplateStatus = (typeof templateStatuses)[number];

export const templateCategories = ['MARKETING', 'UTILITY', 'AUTHENTICATION'] as const;
export type TemplateCategory = (typeof templateCategories)[number];

export const templateComponentTypes = ['header', 'body', 'footer', 'buttons'] as const;
export const templateButtonTypes = ['quick_reply', 'url', 'phone_number'] as const;

/** Limits of the business API on template parts. */
export const templateLimits = { headerChars: 60, bodyChars: 1024, footerChars: 60, buttons: 10, buttonTextChars: 25 } as const;

export const TemplateButton = Type.Object(
  {
    type: Type.Enum([...templateButtonTypes], { description: 'quick_reply buttons carry the payloads a send binds.' }),
    text: Type.String({ minLength: 1, maxLength: templateLimits.buttonTextChars }),
    url: Type.Optional(Type.String({ format: 'uri', maxLength: 2000, description: 'url buttons only.' })),
    phone_number: Type.Optional(Type.String({ pattern: '^\\+?[1-9][0-9]{6,14}$', description: 'phone_number buttons only.' })),
  },
  { additionalProperties: false },
);
export type TemplateButton = Static<typeof TemplateButton>;

export const TemplateComponent = Type.Object(
  {
    type: Type.Enum([...templateComponentTypes]),
    text: Type.Optional(Type.String({ minLength: 1, maxLength: templateLimits.bodyChars, description: 'header, body and footer: the text, with {{n}} variables in header and body.' })),
    buttons: Type.Optional(Type.Array(TemplateButton, { minItems: 1, maxItems: templateLimits.buttons, description: 'buttons only.' })),
  },
  { additionalProperties: false },
);
export type TemplateComponent = Static<typeof TemplateComponent>;

export const Template = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The template code a send names in `template.id`.' }),
  channel_id: Type.String({ format: 'uuid' }),
  name: Type.String(),
  language: Type.String({ description: 'Language code, e.g. en or pt_BR.' }),
  category: Type.Enum([...templateCategories]),
  status: Type.Enum([...templateStatuses], {
    description: 'APPROVED: usable. PENDING: being checked. REJECTED: failed moderation. PAUSED: recipients complained. DISABLED: blocked after complaints.',
  }),
  components: Type.Array(TemplateComponent),
  updated_at: Type.String({ format: 'date-time' }),
});
export type Template = Static<typeof Template>;

export const TemplatesQuery = Type.Object(
  { channel_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only the templates of this channel.' })) },
  { additionalProperties: false },
);

export const TemplateIdParams = Type.Object({ template_id: Type.String({ format: 'uuid' }) });

/** The sandbox: a template submitted on a wapi channel; the platform starts moderating it (PENDING). */
export const CreateTemplateBody = Type.Object(
  {
    name: Type.String({ pattern: '^[a-z0-9_]{1,512}$', description: 'Lower-case letters, digits and underscores.' }),
    language: Type.String({ pattern: '^[a-z]{2,3}(_[A-Z]{2})?$', description: 'e.g. en, ru, pt_BR.' }),
    category: Type.Enum([...templateCategories]),
    components: Type.Array(TemplateComponent, { minItems: 1, maxItems: 4, description: 'One body; at most one header, footer and buttons.' }),
  },
  { additionalProperties: false },
);
export type CreateTemplateBody = Static<typeof CreateTemplateBody>;

export const ModerationBody = Type.Object(
  { status: Type.Enum([...templateStatuses], { description: 'The platform’s verdict.' }) },
  { additionalProperties: false },
);

/**
 * Business-API templates as the original service manages them (`/v2/templates/waba`): Meta's shape, upper-case
 * component and button types, one template submitted on each of `channels`.
 */
export const WabaTemplateButton = Type.Object({
  type: Type.String({ description: 'QUICK_REPLY, URL or PHONE_NUMBER.' }),
  text: Type.String({ minLength: 1, maxLength: templateLimits.buttonTextChars }),
  url: Type.Optional(Type.String({ maxLength: 2000 })),
  phone_number: Type.Optional(Type.String({ maxLength: 20 })),
});

export const WabaTemplateComponent = Type.Object({
  type: Type.String({ description: 'HEADER, BODY, FOOTER or BUTTONS.' }),
  format: Type.Optional(Type.String({ description: 'HEADER: TEXT (the only format kept here).' })),
  text: Type.Optional(Type.String({ maxLength: templateLimits.bodyChars })),
  example: Type.Optional(Type.Unknown({ description: 'Sample values of the variables, as Meta takes them.' })),
  buttons: Type.Optional(Type.Array(WabaTemplateButton, { maxItems: templateLimits.buttons })),
});

export const WabaTemplate = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 512, description: 'The template name; lower-cased, other characters than letters and digits become _.' }),
  waba: Type.Optional(Type.Object({ waba_id: Type.Optional(Type.String()), waba_name: Type.Optional(Type.String()) })),
  channels: Type.Array(Type.String({ format: 'uuid' }), { minItems: 1, maxItems: 100, description: 'wapi channels to submit the template on.' }),
  category: Type.Enum(['MARKETING', 'UTILITY']),
  language: Type.String({ pattern: '^[a-z]{2,3}(_[A-Z]{2})?$' }),
  components: Type.Array(WabaTemplateComponent, { minItems: 1, maxItems: 4 }),
});
export type WabaTemplate = Static<typeof WabaTemplate>;

export const WabaTemplateBody = Type.Object({ template: WabaTemplate, is_draft: Type.Optional(Type.Boolean()) });
export type WabaTemplateBody = Static<typeof WabaTemplateBody>;

export const WabaTemplateChange = Type.Object({
  template: Type.Object({
    category: Type.Optional(WabaTemplate.properties.category),
    components: Type.Optional(WabaTemplate.properties.components),
  }),
});
export type WabaTemplateChange = Static<typeof WabaTemplateChange>;

/** A submitted template, answered in the service's shape with the gateway's per-channel copies. */
export const WabaTemplateAnswer = Type.Object({
  id: Type.String({ format: 'uuid', description: 'The template: get, edit and delete it at /v2/templates/waba/{id}; a send names it in template.id.' }),
  title: Type.String(),
  category: Type.String(),
  language: Type.String(),
  status: Type.Enum([...templateStatuses]),
  channels: Type.Array(Type.String()),
  components: Type.Array(Type.Unknown()),
  templates: Type.Array(Template, { description: 'One per channel, each with its own id and moderation status.' }),
});
export type WabaTemplateAnswer = Static<typeof WabaTemplateAnswer>;
