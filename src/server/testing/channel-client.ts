import type { LightMyRequestResponse } from 'fastify';
import type { Channel } from '../../contract/channel-api.ts';
import { eventually } from './eventually.ts';
import type { TestGateway } from './harness.ts';

/** The channel calls of one account, as a CRM and the sandbox's other side make them, for tests. */
export function channelClient(t: TestGateway, token: string) {
  const data = <T>(res: LightMyRequestResponse, status: number): T => {
    if (res.statusCode !== status) throw new Error(`expected ${status}, got ${res.statusCode}: ${res.body}`);
    return (res.json() as { data: T }).data;
  };
  const get = async (id: string) => data<Channel[]>(await t.call('GET', `/v2/channels/${id}`, { token }), 200)[0]!;
  return {
    post: (url: string, body: unknown = {}) => t.call('POST', url, { token, body }),
    async create(transport: string, credentials: Record<string, unknown> = {}): Promise<{ channel_id: string; url?: string }> {
      return data<{ channel_id: string; url?: string }[]>(await t.call('POST', '/v2/channels', { token, body: { transport, credentials } }), 201)[0]!;
    },
    get,
    /** The other side of the sandbox acting on a channel: `scan`, `logout`, `tier`… */
    sandbox: (id: string, action: string, body: unknown = {}) => t.call('POST', `/v2/sandbox/channels/${id}/${action}`, { token, body }),
    reinit: (id: string, credentials: Record<string, unknown> = {}) => t.call('POST', `/v2/channels/${id}/reinit`, { token, body: { credentials } }),
    /** Waits for the history sync the queue runs after a scan. */
    untilActive: (id: string) => eventually(async () => ((await get(id)).status === 'active' ? true : undefined)),
  };
}
