/** The durable work the domain asks for, by name, with its payload. The jobs layer maps names to queues. */
export interface JobPayloads {
  /** Fan one recorded event out to its consumers (webhook deliveries, realtime). */
  'events.dispatch': { eventId: string };
  /** Send one webhook delivery (with its batch) if it heads its lane and is due. */
  'webhooks.deliver': { deliveryId: string };
}

export type JobName = keyof JobPayloads;
