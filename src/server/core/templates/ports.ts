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

/** A template as submitted to a platform: the gateway's parts, and the sample values the caller gave each part (Meta's `example`). */
export interface SubmittedTemplate {
  name: string;
  language: string;
  category: TemplateRecord['category'];
  components: TemplateComponent[];
  /** By part (`header`, `body`…): the caller's `example` of it, handed on as it is. */
  examples: Partial<Record<TemplateComponent['type'], unknown>>;
}

/**
 * A platform that moderates business-API templates itself (live wapi: Meta's message-template API), in place of the
 * sandbox. Each call throws the API's error for a refusal (AppError), the platform's words in it.
 */
export interface TemplatePlatform {
  /**
   * The platform's account the channel's templates belong to (one template is shared by the channels of one account):
   * throws where the channel has none (not connected yet).
   */
  accountOf(channel: { id: string; credentials: string | null }): string;
  /** Submits the template on the channel's account: the status the platform gives it at once. */
  submit(channel: { id: string; credentials: string | null }, template: SubmittedTemplate): Promise<{ status: TemplateStatus }>;
  /** Submits the template's new category or parts again. */
  edit(channel: { id: string; credentials: string | null }, template: SubmittedTemplate): Promise<void>;
  /** Deletes the template (that name in that language) from the channel's account; one the platform no longer has is gone already. */
  remove(channel: { id: string; credentials: string | null }, template: Pick<TemplateRecord, 'name' | 'language'>): Promise<void>;
}
