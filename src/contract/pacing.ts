import { Type, type Static } from 'typebox';

/**
 * The `pacing` extension of a personal channel (whatsapp, tgapi): how it spaces its sends so that the platform does
 * not ban the number, and its queue now. Not in the original interface; documented in docs/whatsapp-personal.md.
 */
const caps = (description: string) => Type.Array(Type.Integer({ minimum: 0, maximum: 100_000 }), { minItems: 1, maxItems: 60, description });
const bounds = (description: string) =>
  Type.Object({ min: Type.Number({ minimum: 0, maximum: 3_600 }), max: Type.Number({ minimum: 0, maximum: 3_600 }) }, { additionalProperties: false, description });
const clockTime = Type.String({ pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'Local time, HH:MM.' });

export const PacingProfileSchema = Type.Object(
  {
    enabled: Type.Boolean({ description: 'Off: the channel sends as fast as the queue hands sends over (at the owner’s risk).' }),
    time_zone: Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone of the channel’s day and quiet hours.' }),
    warm_up: Type.Boolean({ description: 'Whether the caps rise over the first days after linking; false: the last step applies at once.' }),
    daily_caps: caps('Outgoing messages per day for day 1, 2, … after linking; the last applies from then on.'),
    first_contact_caps: caps('First contacts (chats nobody wrote in before) per day, likewise. Replies never wait for this cap.'),
    gap_seconds: bounds('A random pause between two sends, drawn between these bounds.'),
    burst_size: Type.Integer({ minimum: 1, maximum: 1_000, description: 'After this many sends, one longer pause.' }),
    burst_pause_seconds: bounds('The longer pause after a burst, drawn between these bounds.'),
    quiet_hours: Type.Union([Type.Object({ from: clockTime, to: clockTime }, { additionalProperties: false }), Type.Null()], {
      description: 'Local hours in which sends to chats where the customer never wrote wait; null: none.',
    }),
    typing: Type.Union(
      [
        Type.Object(
          { ms_per_char: Type.Number({ minimum: 0, maximum: 1_000 }), min_ms: Type.Integer({ minimum: 0, maximum: 20_000 }), max_ms: Type.Integer({ minimum: 0, maximum: 20_000 }) },
          { additionalProperties: false },
        ),
        Type.Null(),
      ],
      { description: '"typing…" shown before a send, growing with the text; null: none.' },
    ),
    max_hold_hours: Type.Number({ minimum: 1, maximum: 24 * 30, description: 'A send held longer than this fails with reason held_too_long.' }),
  },
  { additionalProperties: false },
);
export type PacingProfileBody = Static<typeof PacingProfileSchema>;

export const PacingPatchBody = Type.Partial(PacingProfileSchema, { additionalProperties: false, description: 'The fields to change; the rest stay.' });

const at = Type.Union([Type.String({ format: 'date-time' }), Type.Null()]);

export const ChannelPacing = Type.Object({
  channel_id: Type.String({ format: 'uuid' }),
  profile: PacingProfileSchema,
  /** The channel's queue and day now. */
  state: Type.Object({
    day: Type.Integer({ description: 'Day since linking (1: the day the number was linked).' }),
    sent_today: Type.Integer(),
    first_contacts_today: Type.Integer(),
    daily_cap: Type.Integer(),
    first_contact_cap: Type.Integer(),
    queue_length: Type.Integer({ description: 'Sends accepted and not yet handed to the messenger.' }),
    held: Type.Integer({ description: 'Of those, sends held by the pacing now.' }),
    next_send_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'Not before this moment (the gap after the last send).' }),
    current_gap_seconds: Type.Number(),
    held_sends: Type.Array(
      Type.Object({
        request_id: Type.String({ format: 'uuid' }),
        reason: Type.Enum(['gap', 'daily_cap', 'first_contact_cap', 'quiet_hours', 'slowed_down']),
        until: Type.String({ format: 'date-time' }),
      }),
      { description: 'The first 100 sends held now, oldest first: each stays accepted and goes at `until` at the earliest.' },
    ),
    slowed_down: Type.Union([Type.Object({ reason: Type.Enum(['rate_limited', 'flagged']), until: Type.String({ format: 'date-time' }) }), Type.Null()], {
      description: 'Set while the platform’s rate limit (429, FLOOD_WAIT) or spam flag (463, PEER_FLOOD) slows the channel down.',
    }),
  }),
  linked_at: at,
});
export type ChannelPacingBody = Static<typeof ChannelPacing>;
