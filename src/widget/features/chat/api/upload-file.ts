import type { Attachment } from '../../../../contract/messages.ts';
import type { BffClient } from '@/lib/bff-client.ts';

/** POST /bff/uploads: the file's bytes, kept by the gateway; answers the attachment a send names it by. */
export const uploadFile = (client: BffClient, file: File): Promise<Attachment> =>
  client.request<Attachment>('POST', `/uploads?name=${encodeURIComponent(file.name)}`, file);
