import { AppError } from '../../core/errors.ts';
import type { MessengerFile, MessengerFileRangeNotSatisfiable } from '../../core/messages/ports.ts';
import { botKeyOf, fileLinks } from '../bot-common.ts';
import { forwardedRange } from '../byte-ranges.ts';
import type { CallPacer } from '../call-pacer.ts';
import { GraphApiError } from '../meta/graph-api.ts';
import { downloadFromPlatform } from '../platform-download.ts';
import { resolvedAddresses } from '../resolved-addresses.ts';
import { isMetaId, numberOf, pacedNumber, type WhatsAppDeps } from './account.ts';

/** How long Meta's media server may take to start sending a file, and to send the next part of it. */
const DOWNLOAD_TIMEOUT_MS = 30_000;

/**
 * A customer's media stays at Meta, and only the number's business token opens it (documented, Cloud API "Media":
 * `GET /{media_id}` gives a `url` valid for five minutes, which is downloaded with the same token in the
 * Authorization header; Meta keeps a customer's media for 30 days). So each file gets a link of the gateway's own,
 * as Telegram's and MAX's videos do: `${PUBLIC_URL}/hooks/wapi/<channel>/files/<media id>?signature=…`, signed so
 * that it can be neither forged nor moved to another file or channel. Opening it asks Meta for the address (kept four
 * minutes per process, short of its five) and streams the file; a single `Range` is passed on. Like the others, the
 * links do not expire, and anyone holding one may download while Meta keeps the file.
 */
export function whatsappMedia(deps: WhatsAppDeps, pacer: CallPacer) {
  const links = fileLinks(deps.linkKey, deps.publicUrl, 'wapi');
  const unavailable = () => new AppError('SERVICE_UNAVAILABLE', 'Meta could not give the file; try again');
  const addresses = resolvedAddresses({ ttlMs: 4 * 60_000 });

  return {
    link: (channelId: string) => (mediaId: string) => links.url(channelId, mediaId),

    async open(channelId: string, mediaId: string, signature: string, rangeHeader?: string): Promise<MessengerFile | MessengerFileRangeNotSatisfiable | 'forbidden' | null> {
      if (!links.verify(channelId, mediaId, signature)) return 'forbidden';
      if (!isMetaId(mediaId)) return null;
      const channel = await deps.channels.getById(channelId);
      const number = numberOf(deps.cipher, channel?.credentials);
      if (!number) return null;
      const range = forwardedRange(rangeHeader);
      return addresses.open(
        { channelId, fileId: mediaId, bot: botKeyOf(number.business_token) },
        async () => {
          try {
            const found = await pacedNumber(deps, pacer, number).call<{ url?: unknown }>('GET', `/${mediaId}`);
            return typeof found.url === 'string' && /^https?:\/\//i.test(found.url) ? found.url : null;
          } catch (err) {
            // Gone (older than Meta keeps), or not this number's, or a token Meta no longer takes: nothing to give.
            if (err instanceof GraphApiError && err.status < 500 && !err.transient && err.status !== 429) return null;
            throw unavailable();
          }
        },
        async (address) => {
          const got = await downloadFromPlatform(address, range, { timeoutMs: DOWNLOAD_TIMEOUT_MS, unavailable, headers: { authorization: `Bearer ${number.business_token}` }, ...(deps.filesAgent ? { dispatcher: deps.filesAgent } : {}) });
          if (!got || 'rangeNotSatisfiable' in got) return got;
          const { toldType, ...file } = got;
          return { ...file, contentType: toldType ?? 'application/octet-stream' };
        },
      );
    },
  };
}
