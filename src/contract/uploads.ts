import { Type } from 'typebox';
import { uploadLimits } from './upload-limits.ts';

/**
 * Files an agent attaches in the chat frame: the frame posts the file's bytes to `POST /bff/uploads?name=…` (its
 * type as `content-type`), the gateway keeps them and answers an `attachment` to send, whose `url` is the gateway's
 * own signed link. Messengers fetch the file from that link when it is sent.
 */
export { uploadLimits };

export const UploadQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: uploadLimits.nameChars, description: 'The file’s name, as the customer will see it.' }) },
  { additionalProperties: false },
);

export const UploadIdParams = Type.Object({ upload_id: Type.String({ format: 'uuid' }) });

export const UploadLinkQuery = Type.Object({ signature: Type.String({ maxLength: 128 }) }, { additionalProperties: false });
