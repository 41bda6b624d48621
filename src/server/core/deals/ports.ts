import type { StoredDeal, StoredPipeline } from '../../../contract/crm-entities.ts';

export interface DealRepository {
  upsert(accountId: string, deals: StoredDeal[], at: Date): Promise<void>;
  getMany(accountId: string, ids: string[]): Promise<StoredDeal[]>;
  /** How many the account has (the v3 face's pages say it). */
  count(accountId: string): Promise<number>;
  /** In id order. */
  list(accountId: string, page: { offset: number; limit: number }): Promise<StoredDeal[]>;
  remove(accountId: string, ids: string[]): Promise<void>;
  /** Deals naming the contact that are not closed, in id order. */
  openOfContact(accountId: string, contactId: string): Promise<StoredDeal[]>;
}

export interface PipelineRepository {
  upsert(accountId: string, pipelines: StoredPipeline[], at: Date): Promise<void>;
  list(accountId: string): Promise<StoredPipeline[]>;
}
