import type { TelegramClient } from '@mtcute/core/client.js';
import type { TgapiClient, TgapiClientFactory } from './mtcute-client.ts';
import { errorText, SESSION_ENDED } from './refusals.ts';
import { onSessionSaved, restoreSession, snapshotSession } from './session-state.ts';

/** What an account's session tells the gateway: the steps of its login, what it hears, and its state to keep. */
export interface SessionListener {
  /** The QR was scanned: by the account now known (`user`), or by one that must give its password first. */
  scanned(scan: { needsPassword: true } | { needsPassword: false; user: TgUser; viaPassword: boolean }): Promise<void>;
  /** Telegram ended the session (from the phone's active sessions, or for good): the channel is logged out. */
  ended(): Promise<void>;
  /** The session's state changed (login, update state): `snapshot` is to be sealed and kept. */
  persist(snapshot: string): Promise<void>;
  /** Something failed where nobody waits for it (an update's record, a login's step). */
  warn(err: unknown, message: string): void;
  /** Attaches the session's handlers for what Telegram posts (messages, edits, deletes, reads, members). */
  listen(client: TelegramClient, track: (work: Promise<unknown>) => void): void;
}

/** The account as the library names it (the parts the channel shows). */
export interface TgUser {
  id: number;
  phoneNumber: string | null;
  username: string | null;
  displayName: string;
}

const userOf = (raw: { id: number; phone?: string; username?: string; firstName?: string; lastName?: string }): TgUser => ({
  id: raw.id,
  phoneNumber: raw.phone ?? null,
  username: raw.username ?? null,
  displayName: [raw.firstName, raw.lastName].filter(Boolean).join(' '),
});

type LoginStep = 'qr' | 'password' | 'ready' | 'closed';

/**
 * One personal account's connection: a client opened with the state kept of it, through its login (a QR, then the
 * two-factor password when the account has one), then kept up to what Telegram posts. Its handlers run one after
 * another, and the state (with the update position) is kept only once those before it are done, so that an update
 * whose message is not recorded yet is asked for again after a crash rather than lost.
 */
export class AccountSession {
  #step: LoginStep;
  #pending: Promise<unknown> = Promise.resolve();
  #saving: Promise<void> = Promise.resolve();
  #scanHandled = false;

  private readonly opened: TgapiClient;
  private readonly listener: SessionListener;

  private constructor(opened: TgapiClient, listener: SessionListener, authorized: boolean) {
    this.opened = opened;
    this.listener = listener;
    this.#step = authorized ? 'ready' : 'qr';
  }

  /** Opens a session: an authorized one (its kept `snapshot`) starts hearing updates, a new one waits for its QR. */
  static async open(factory: TgapiClientFactory, snapshot: string | null, listener: SessionListener): Promise<AccountSession> {
    const opened = await factory();
    if (snapshot) restoreSession(opened.storage, snapshot);
    const session = new AccountSession(opened, listener, snapshot !== null);
    // The library waits for its saves inside its calls (a send's answer saves the peers it names): kept in the
    // background, so that a call never waits for the handlers under way, which may wait for that very call (the echo of
    // a send, heard before the send's answer, waits for the send to be recorded).
    onSessionSaved(opened.storage, async () => void session.#saveInTurn());
    const { client } = opened;
    client.onError.add((err) => {
      if (SESSION_ENDED.has(errorText(err) ?? '')) void session.#ended();
    });
    // The library stops its updates quietly when Telegram says the session is gone: every call is watched for it,
    // the update loop's (which runs on the inner client) as well as the session's own.
    const inner = (client as unknown as { _client?: { call: TelegramClient['call'] } })._client ?? client;
    const call = inner.call.bind(inner);
    inner.call = (async (...args: Parameters<TelegramClient['call']>) => {
      try {
        return await call(...args);
      } catch (err) {
        if (SESSION_ENDED.has(errorText(err) ?? '')) void session.#ended();
        throw err;
      }
    }) as TelegramClient['call'];
    client.onServerUpdate.add((update) => {
      // Not among the tracked handlers: logging in saves the state, which waits for those.
      if (update._ === 'updateShort' && update.update._ === 'updateLoginToken') session.#loginTokenUsed().catch((err: unknown) => listener.warn(err, 'completing a QR login failed'));
    });
    listener.listen(client, (work) => session.#track(work));
    await client.connect();
    if (session.#step === 'ready') await client.startUpdatesLoop();
    return session;
  }

  get client(): TelegramClient {
    return this.opened.client;
  }

  get ready(): boolean {
    return this.#step === 'ready';
  }

  /** A fresh login token as Telegram's QR link (`tg://login?token=…`): each QR the channel shows is a new one. */
  async loginLink(): Promise<string> {
    if (this.#step !== 'qr') throw new Error(`the session is not waiting for a QR scan (${this.#step})`);
    const answer = await this.#exportToken();
    if (answer === 'password' || answer === 'success') throw new Error('the QR was scanned meanwhile');
    return `tg://login?token=${Buffer.from(answer).toString('base64url')}`;
  }

  /** The account's two-factor password, checked by SRP: false when Telegram says it is wrong. */
  async checkPassword(password: string): Promise<boolean> {
    if (this.#step !== 'password') throw new Error(`the session is not waiting for a password (${this.#step})`);
    try {
      const user = await this.client.checkPassword(password);
      await this.#loggedIn(userOf({ id: user.id, phone: user.phoneNumber ?? undefined, username: user.username ?? undefined, firstName: user.firstName, lastName: user.lastName ?? undefined }), true);
      return true;
    } catch (err) {
      if (errorText(err) === 'PASSWORD_HASH_INVALID') return false;
      throw err;
    }
  }

  /** Ends the session on Telegram (a channel deleted), then closes it. */
  async logOut(): Promise<void> {
    if (this.#step === 'ready') await this.client.logOut().catch(() => {});
    await this.close();
  }

  /** Closes the connection once the handlers under way are done (and the state they reached is kept). */
  async close(): Promise<void> {
    if (this.#step === 'closed') return;
    const wasReady = this.#step === 'ready';
    this.#step = 'closed';
    await this.#pending;
    if (wasReady) await this.#saveInTurn();
    onSessionSaved(this.opened.storage, async () => {});
    await this.client.destroy().catch(() => {});
  }

  #track(work: Promise<unknown>): void {
    this.#pending = Promise.all([this.#pending, work.catch((err: unknown) => this.listener.warn(err, 'recording an update failed'))]);
  }

  /** Saves one after another, so that an older state never lands after a newer one. */
  #saveInTurn(): Promise<void> {
    this.#saving = this.#saving.then(() => this.#save());
    return this.#saving;
  }

  /**
   * Keeps the state reached. The library saves on its own timers, where nobody catches, and a closing session saves
   * last: a state that cannot be kept (the database away) is told, not thrown; the next save, or the next owner's
   * catch-up from the last state kept, makes up for it.
   */
  async #save(): Promise<void> {
    await this.#pending;
    if (this.#step !== 'ready' && this.#step !== 'closed') return;
    await this.listener.persist(snapshotSession(this.opened.storage)).catch((err: unknown) => this.listener.warn(err, 'keeping the session’s state failed'));
  }

  async #ended(): Promise<void> {
    if (this.#step === 'closed') return;
    this.#step = 'closed';
    await this.listener.ended().catch(() => {});
    await this.client.destroy().catch(() => {});
  }

  /** `auth.exportLoginToken`: a token to show, or the scan's outcome once the QR was scanned. */
  async #exportToken(): Promise<Uint8Array | 'password' | 'success'> {
    const { id, hash } = await this.client.getApiCredentials();
    try {
      let answer = await this.client.call({ _: 'auth.exportLoginToken', apiId: id, apiHash: hash, exceptIds: [] });
      if (answer._ === 'auth.loginTokenMigrateTo') {
        // The account lives in another data centre: the token is redeemed there.
        await this.client.changePrimaryDc(answer.dcId);
        answer = await this.client.call({ _: 'auth.importLoginToken', token: answer.token });
      }
      if (answer._ === 'auth.loginToken') return answer.token;
      if (answer._ !== 'auth.loginTokenSuccess' || answer.authorization._ !== 'auth.authorization') throw new Error(`unexpected answer ${answer._}`);
      const user = answer.authorization.user;
      if (user._ !== 'user') throw new Error('the authorization names no user');
      await this.client.notifyLoggedIn(answer.authorization);
      await this.#loggedIn(userOf(user), false);
      return 'success';
    } catch (err) {
      if (errorText(err) === 'SESSION_PASSWORD_NEEDED') return 'password';
      throw err;
    }
  }

  /** Telegram's `updateLoginToken`: the QR was scanned; exporting again says by whom, or that a password is needed. */
  async #loginTokenUsed(): Promise<void> {
    if (this.#step !== 'qr' || this.#scanHandled) return;
    this.#scanHandled = true;
    const outcome = await this.#exportToken();
    if (outcome === 'password') {
      this.#step = 'password';
      await this.listener.scanned({ needsPassword: true });
    }
  }

  /** The library has taken the authorization (`notifyLoggedIn`, which checkPassword does itself). */
  async #loggedIn(user: TgUser, viaPassword: boolean): Promise<void> {
    this.#step = 'ready';
    await this.listener.persist(snapshotSession(this.opened.storage));
    await this.client.startUpdatesLoop();
    await this.listener.scanned({ needsPassword: false, user, viaPassword });
  }
}
