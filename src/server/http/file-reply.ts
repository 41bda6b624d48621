import type { FastifyReply } from 'fastify';

const SHOWN_IN_PLACE = /^(image\/(jpeg|png|webp|gif)|audio\/[\w.+-]+|video\/[\w.+-]+)$/;

/**
 * How a file someone else chose (a customer's, an agent's) is served from the gateway's origin: shown in place only
 * when it is a picture, a sound or a video; anything else is a download; and nothing it holds runs here.
 */
export function asForeignFile(reply: FastifyReply, contentType: string, fileName?: string): FastifyReply {
  if (!SHOWN_IN_PLACE.test(contentType)) {
    reply.header('content-disposition', fileName ? `attachment; filename*=UTF-8''${encodeURIComponent(fileName)}` : 'attachment');
  }
  return reply.type(contentType).header('content-security-policy', 'sandbox');
}
