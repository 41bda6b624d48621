/**
 * Who is behind a chat where a platform names people otherwise than the interface names its chats. Instagram
 * writes to a person by their Instagram-scoped id (IGSID) and reports their messages by it, while an instagram
 * chat's `chat_id` is the person's account name: a live driver keeps here which id is behind which name, so that a
 * send to a chat reaches its person and a report of the person lands in their chat. WhatsApp names a customer by
 * their WhatsApp id, which may not be the number the CRM wrote (a Brazilian mobile with or without its ninth digit):
 * its driver keeps such a WhatsApp id here, the CRM's chat id as its handle.
 */

export interface MessengerPeer {
  /** The platform's id of the person, by which it addresses them (Instagram's IGSID, WhatsApp's wa_id). */
  peerId: string;
  /** The chat id the person's messages are recorded under; null once another person took that name. */
  handle: string | null;
  /** Their name as the platform shows it, when it said. */
  name: string | null;
  /** When the platform was last asked who the person is. */
  checkedAt: Date;
}

export interface PeerDirectory {
  byPeerId(channelId: string, peerId: string): Promise<MessengerPeer | undefined>;
  /** The person who holds a name in the channel now. */
  byHandle(channelId: string, handle: string): Promise<MessengerPeer | undefined>;
  /**
   * Stores what the platform says of a person now. Names are unique in a channel: another person who held the
   * name (they renamed themselves, and this one took it) loses it, in the same statement.
   */
  save(channelId: string, peer: MessengerPeer): Promise<void>;
}
