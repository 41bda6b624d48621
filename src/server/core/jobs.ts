/** The durable work the domain asks for, by name, with its payload. The jobs layer maps names to queues. */
export interface JobPayloads {
  /** A channel's QR reached the end of its life: show the next one, or stop after the last. */
  'channels.qr_tick': { channelId: string; shown: number };
  /** A scanned channel loads its history, then becomes active. */
  'channels.sync': { channelId: string };
  /** Write an export's CSV file, then announce it. */
  'exports.build': { exportId: string };
  /** Remove an export's file once its link expired. */
  'exports.purge': { exportId: string };
}

export type JobName = keyof JobPayloads;
