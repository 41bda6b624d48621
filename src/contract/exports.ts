import { Type, type Static } from 'typebox';

/** Message export tasks (interface "Export task", docs/decisions.md "Export"). */

export const exportStatuses = ['pending', 'processing', 'done', 'webhook_failed'] as const;
export type ExportStatus = (typeof exportStatuses)[number];

/** Longest period one export covers without a warning in the answer (a longer one is exported whole). */
export const MAX_EXPORT_DAYS = 366;

/** The CSV file's columns, in this order (docs/decisions.md "Export"). */
export const exportColumns = [
  'message_id',
  'created_at',
  'channel_id',
  'transport',
  'channel_name',
  'chat_type',
  'chat_id',
  'contact_name',
  'direction',
  'status',
  'reason',
  'text',
  'attachment_url',
  'attachment_name',
  'template_id',
  'crm_user_id',
  'quoted_message_id',
  'edited_at',
  'deleted_at',
] as const;
export type ExportColumn = (typeof exportColumns)[number];

const instant = (what: string) =>
  Type.String({
    minLength: 1,
    maxLength: 40,
    description: `${what}, ISO 8601: a date (midnight UTC) or a date-time; a date-time without an offset is UTC.`,
    examples: ['2030-01-01T00:00:00Z'],
  });

export const CreateExportBody = Type.Object(
  {
    start_at: instant('Start of the period, included'),
    end_at: instant('End of the period, excluded; after start_at and at most 366 days later'),
    channel_id: Type.Optional(Type.String({ format: 'uuid', description: 'Only the chats of this channel.' })),
  },
  { additionalProperties: false },
);
export type CreateExportBody = Static<typeof CreateExportBody>;

export const ExportCreated = Type.Object({
  status: Type.Enum([...exportStatuses]),
  export_id: Type.String({ format: 'uuid' }),
  warnings: Type.Optional(Type.Array(Type.String(), { description: 'Present when the period is longer than 366 days: it is exported whole.' })),
});

export const ExportTask = Type.Object({
  export_id: Type.String({ format: 'uuid' }),
  status: Type.Enum([...exportStatuses], {
    description: 'pending (queued) → processing → done; webhook_failed when the file is ready but the messages_dump.status_update delivery was answered with an error (done again once a retry succeeds).',
  }),
  url: Type.Union([Type.String({ format: 'uri' }), Type.Null()], {
    description: 'Signed link to the CSV file, valid 24 hours from completion; null until done.',
  }),
});
export type ExportTask = Static<typeof ExportTask>;

export const ExportIdParams = Type.Object({ export_id: Type.String({ format: 'uuid' }) });

/**
 * GET /downloads/exports/{file}: the signed link. Its parts are checked by the route, so that any link that is
 * not one of ours answers 403 rather than a validation error.
 */
export const DownloadParams = Type.Object({ file: Type.String({ maxLength: 64, description: '<export_id>.csv' }) });
export const DownloadQuery = Type.Object({
  expires: Type.Optional(Type.String({ maxLength: 20, description: 'Unix seconds after which the link answers 410.' })),
  signature: Type.Optional(Type.String({ maxLength: 128 })),
});
