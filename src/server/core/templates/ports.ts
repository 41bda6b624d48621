import type { TemplateCategory, TemplateComponent, TemplateStatus } from '../../../contract/templates.ts';

/** A business-API template of one wapi channel, as moderated by the platform. */
export interface TemplateRecord {
  id: string;
  accountId: string;
  channelId: string;
  name: string;
  language: string;
  category: TemplateCategory;
  status: TemplateStatus;
  components: TemplateComponent[];
  createdAt: Date;
  updatedAt: Date;
}

/** Templates the API can see: those of the account's channels that are not deleted. */
export interface TemplateRepository {
  insert(template: TemplateRecord): Promise<void>;
  /** A template of the account; another account's is not found. */
  get(accountId: string, id: string): Promise<TemplateRecord | undefined>;
  /** The same, locking the row until the transaction ends. */
  getForUpdate(accountId: string, id: string): Promise<TemplateRecord | undefined>;
  /** Ordered by channel, name and language; only one channel's when `channelId` is given. */
  list(accountId: string, channelId?: string): Promise<TemplateRecord[]>;
  /** A template of the channel by id (a send's driver, which knows the channel, not the account). */
  findForChannel(channelId: string, id: string): Promise<TemplateRecord | undefined>;
  /** Whether the channel already has a template of this name and language. */
  exists(channelId: string, name: string, language: string): Promise<boolean>;
  updateStatus(id: string, status: TemplateStatus, at: Date): Promise<void>;
  /** Every template of one channel, whatever its account (a platform reading its account's templates into the channel's). */
  listForChannel(channelId: string): Promise<TemplateRecord[]>;
  /** Writes a template's category, status and parts as the platform now has them. */
  update(template: TemplateRecord): Promise<void>;
  /** The platform deleted the template: its row goes (messages sent with it keep their own copy of it). */
  remove(id: string): Promise<void>;
}
