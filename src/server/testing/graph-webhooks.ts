import { createHmac } from 'node:crypto';
import { request } from 'undici';

/**
 * Meta's side of Instagram's webhooks, for the live driver's tests: the app's callback address and verify token as
 * they are set in the app dashboard, the check Meta makes of the address when it is saved (a GET with `hub.*`), and
 * posts of an account's events, signed with the app secret in `X-Hub-Signature-256` as Meta signs them. A post
 * answered otherwise than 2xx is posted again, as Meta does (here every `retryEveryMs`, up to `retries` times), in
 * the background; `settled()` waits for every post under way, and those still to be tried again.
 */

export interface WebhookPoster {
  /** The app's callback address and verify token, as the dashboard holds them. */
  setCallback(url: string, verifyToken: string): void;
  /** Meta's check of the callback: its GET with a challenge (the dashboard's token unless another is given), as answered. */
  verify(token?: string): Promise<{ status: number; body: string }>;
  /**
   * Posts a body as Meta does, signed (or with the signature given, or none); the first answer's status. With
   * `retry`, a post answered otherwise than 2xx is posted again later, in the background.
   */
  post(body: unknown, options?: { signature?: string | null; retry?: boolean }): Promise<number>;
  /** One account's messaging events in one post: `{object: 'instagram', entry: [{id, time, messaging}]}`. */
  postEvents(accountId: string, events: Record<string, unknown>[], options?: { retry?: boolean }): Promise<number>;
  /** Every post made, with its answer, in the order made (retries included). */
  posts: { body: unknown; status: number }[];
  /** Waits until no post is under way, nor waiting to be tried again. */
  settled(): Promise<void>;
}

export function webhookPoster(appSecret: string, options: { retries?: number; retryEveryMs?: number } = {}): WebhookPoster {
  const retries = options.retries ?? 100;
  const retryEveryMs = options.retryEveryMs ?? 50;
  let callback: { url: string; verifyToken: string } | null = null;
  const posts: { body: unknown; status: number }[] = [];
  const trying = new Set<Promise<void>>();

  const sign = (raw: string) => `sha256=${createHmac('sha256', appSecret).update(raw).digest('hex')}`;

  /** Every post under way is waited for by `settled()`, not only those tried again. */
  function postOnce(body: unknown, signature?: string | null): Promise<number> {
    const posting = postNow(body, signature);
    const tracked = posting.then(
      () => {},
      () => {},
    );
    trying.add(tracked);
    void tracked.finally(() => trying.delete(tracked));
    return posting;
  }

  async function postNow(body: unknown, signature?: string | null): Promise<number> {
    if (!callback) throw new Error('no callback address is set up');
    const raw = JSON.stringify(body);
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const signed = signature === undefined ? sign(raw) : signature;
    if (signed !== null) headers['x-hub-signature-256'] = signed;
    const res = await request(callback.url, { method: 'POST', headers, body: raw });
    await res.body.dump();
    posts.push({ body, status: res.statusCode });
    return res.statusCode;
  }

  /** Posts again until a 2xx, in the background. */
  function keepTrying(body: unknown): void {
    const attempt = (async () => {
      for (let i = 0; i < retries; i++) {
        await new Promise((r) => setTimeout(r, retryEveryMs));
        const status = await postOnce(body).catch(() => 0);
        if (status >= 200 && status < 300) return;
      }
    })();
    trying.add(attempt);
    void attempt.finally(() => trying.delete(attempt));
  }

  const poster: WebhookPoster = {
    posts,
    setCallback: (url, verifyToken) => void (callback = { url, verifyToken }),
    async verify(token) {
      if (!callback) throw new Error('no callback address is set up');
      const query = new URLSearchParams({ 'hub.mode': 'subscribe', 'hub.verify_token': token ?? callback.verifyToken, 'hub.challenge': '1158201444' });
      const res = await request(`${callback.url}?${query.toString()}`);
      return { status: res.statusCode, body: await res.body.text() };
    },
    async post(body, { signature, retry = false } = {}) {
      const status = await postOnce(body, signature);
      if (retry && (status < 200 || status > 299)) keepTrying(body);
      return status;
    },
    postEvents: (accountId, events, { retry = true } = {}) =>
      poster.post({ object: 'instagram', entry: [{ id: accountId, time: Date.now(), messaging: events }] }, { retry }),
    async settled() {
      while (trying.size > 0) await Promise.all([...trying]);
    },
  };
  return poster;
}
