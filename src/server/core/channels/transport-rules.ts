import type { Transport, TransportCapabilities } from '../../../contract/channels.ts';

/** Platform named in `channel.qr_update` for the transports that connect by QR. */
export type QrPlatform = 'whatsapp' | 'telegram_api' | 'viber' | 'max';

/**
 * The static rules of one transport: what its channels can do and how they connect. The transports
 * layer supplies one per transport; the core validates with them and the widget reads the capabilities.
 */
export interface TransportRules {
  capabilities: TransportCapabilities;
  qrPlatform: QrPlatform | null;
  /** False for transports connected only through the channels iframe (VK). */
  creatableByApi: boolean;
  /**
   * Where the messenger shows words under a file in the same message, and the most it takes: the chat frame sends a
   * file with its caption as one message where they fit, else as the file and then the words (see captioned-send.ts).
   * `sounds`: whether a sound or voice note takes a caption too. Absent: a file never carries words.
   */
  caption?: { chars: number; sounds: boolean };
}

export type TransportRulesRegistry = Readonly<Record<Transport, TransportRules>>;

/** The edit window of the interface: 15 minutes after delivery. */
export const EDIT_WINDOW_SECONDS = 15 * 60;
