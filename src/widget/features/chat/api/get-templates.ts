import type { Template } from '../../../../contract/templates.ts';
import type { BffClient } from '../../../lib/bff-client.ts';
import { queryString } from './query.ts';

/** GET /bff/templates: the business-API templates of one channel, whatever their status. */
export const getTemplates = (client: BffClient, channelId: string): Promise<Template[]> =>
  client.request<Template[]>('GET', `/templates${queryString({ channel_id: channelId })}`);
