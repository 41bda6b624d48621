// The sandbox phone: every action is one call of the sandbox API (/v2/sandbox/…) with the account's client token.
// The token comes in the address's fragment (#token=…, which browsers never send to a server) or from the form,
// and is kept for this tab only.

const $ = (selector) => document.querySelector(selector);
const QR_TRANSPORTS = ['whatsapp', 'tgapi', 'viber', 'max'];
const BOTS = ['telegram', 'maxbot'];
const SAMPLE_PICTURE = new URL('sample.png', location.href).href;
const QUICK_REACTIONS = ['👍', '❤'];
/** How long "typing…" shows after the last word of it (the messengers' own is about 5 s). */
const TYPING_SHOWN_MS = 6000;
/** How often the customer's typing is told while they type. */
const TYPING_EVERY_MS = 4000;

let token = sessionStorage.getItem('sandbox-phone-token');
let channels = [];
let replyTo = null;

const fragment = new URLSearchParams(location.hash.slice(1));
if (fragment.get('token')) {
  token = fragment.get('token');
  sessionStorage.setItem('sandbox-phone-token', token);
  history.replaceState(null, '', location.pathname + location.search);
}

async function call(method, path, body) {
  const res = await fetch(`/v2${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const answer = res.status === 204 ? null : await res.json();
  if (!res.ok) throw new Error(`${answer?.error ?? res.status}: ${answer?.description ?? ''}`);
  return answer?.data;
}

/** Runs an action and says what came of it. */
async function act(what, action) {
  const outcome = $('#outcome');
  try {
    await action();
    outcome.textContent = `${what}: done.`;
    outcome.className = 'ok';
  } catch (err) {
    outcome.textContent = `${what}: ${err.message}`;
    outcome.className = 'failed';
  }
  await refresh();
}

const channel = () => channels.find((c) => c.channel_id === $('#channel').value);
const digits = (value) => value.replace(/\D/g, '');

function customer() {
  const chatType = $('#chat-type').value;
  const id = $('#customer').value.trim();
  const byPhone = ['telegram', 'max'].includes(chatType) && /^\+?\d{7,15}$/.test(id);
  return byPhone ? { chat_type: chatType, phone: digits(id) } : { chat_type: chatType, chat_id: id };
}

function options(select, values) {
  const kept = select.value;
  select.replaceChildren(...values.map((value) => new Option(value, value)));
  if (values.includes(kept)) select.value = kept;
}

function showChannel() {
  const c = channel();
  $('#channel-status').textContent = c ? `${c.transport} · ${c.status}${c.reason ? ` / ${c.reason}` : ''}${c.phone ? ` · +${c.phone}` : ''}` : 'No channel yet: connect one first.';
  const shown = { qr: c && QR_TRANSPORTS.includes(c.transport), bot: c && BOTS.includes(c.transport), wapi: c?.transport === 'wapi', groups: c && c.capabilities.group_chat_types.length > 0 };
  for (const part of document.querySelectorAll('[data-for]')) part.hidden = !shown[part.dataset.for];
  if (c) {
    options($('#chat-type'), c.capabilities.chat_types.filter((t) => !c.capabilities.group_chat_types.includes(t)));
    options($('#group-type'), c.capabilities.group_chat_types);
  }
}

/**
 * A file and its caption, which the gateway records as two messages (the words name the file: `caption_of`), drawn
 * as one, as the messenger shows them. The words stay theirs to edit (`caption_id`); a delete takes both.
 */
function folded(messages) {
  const shown = [];
  for (const m of messages) {
    const file = shown.at(-1);
    if (m.caption_of && file && file.message_id === m.caption_of && file.attachment && file.text === null) {
      shown[shown.length - 1] = { ...file, text: m.text, caption_id: m.message_id, edited_at: m.edited_at ?? file.edited_at, deleted: file.deleted || m.deleted };
      continue;
    }
    shown.push(m);
  }
  return shown;
}

function messageItem(m) {
  const item = document.createElement('li');
  item.className = m.direction === 'inbound' ? 'mine' : 'theirs';
  const words = document.createElement('p');
  // A file with its caption is one message: the file's name, then the words.
  const file = m.attachment ? `📎 ${m.attachment.name ?? m.attachment.url}` : null;
  words.textContent = file && m.text ? `${file}\n${m.text}` : (m.text ?? file ?? (m.template ? `Template ${m.template.id}` : ''));
  if (m.deleted) words.classList.add('deleted');
  const meta = document.createElement('small');
  // The customer's own messages are theirs to edit and delete; the business's show how far they got.
  const who = m.direction === 'inbound' ? 'you' : `${m.author?.name ?? 'business'} · ${m.status}`;
  meta.textContent = `${who}${m.edited_at ? ' · edited' : ''}${m.deleted ? ' · deleted' : ''}`;
  item.append(...(m.quoted_message ? [quote(m.quoted_message)] : []), words, meta);
  const reactions = m.reactions ?? [];
  if (reactions.length > 0) {
    const shown = document.createElement('p');
    shown.className = 'reactions';
    shown.textContent = reactions.map((r) => `${r.emoji} ${r.by === 'agent' ? 'business' : 'you'}`).join('  ');
    item.append(shown);
  }
  if (m.deleted) return item;
  const keyboard = keyboardOf(m);
  if (keyboard) item.append(keyboard);
  const buttons = document.createElement('div');
  buttons.className = 'buttons';
  const button = (label, action) => {
    const b = document.createElement('button');
    b.type = 'button';
    b.textContent = label;
    b.addEventListener('click', action);
    buttons.append(b);
  };
  button('Reply', () => {
    replyTo = m;
    $('#replying').hidden = false;
    $('#replying').textContent = `Replying to “${(m.text ?? 'a file').slice(0, 40)}”`;
    $('#text').focus();
  });
  if (channel()?.capabilities.reactions) {
    const mine = reactions.find((r) => r.by === 'customer')?.emoji ?? null;
    for (const emoji of QUICK_REACTIONS) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = emoji;
      b.setAttribute('aria-label', mine === emoji ? `Take back ${emoji}` : `React with ${emoji}`);
      b.setAttribute('aria-pressed', String(mine === emoji));
      b.addEventListener('click', () => act('Reaction', () => call('POST', `/sandbox/messages/${m.message_id}/reaction`, { emoji: mine === emoji ? null : emoji })));
      buttons.append(b);
    }
  }
  if (m.direction === 'inbound') {
    button('Edit', () => {
      const text = prompt('The message now says', m.text ?? '');
      if (text) act('Edit', () => call('POST', `/sandbox/messages/${m.caption_id ?? m.message_id}/edit`, { text }));
    });
    button('Delete', () => act('Delete', async () => {
      await call('POST', `/sandbox/messages/${m.message_id}/delete`);
      if (m.caption_id) await call('POST', `/sandbox/messages/${m.caption_id}/delete`);
    }));
  } else if (m.status !== 'read' && m.status !== 'failed') {
    button('Mark read', () => act('Read', () => call('POST', `/sandbox/messages/${m.message_id}/status`, { status: 'read' })));
  }
  item.append(buttons);
  return item;
}

/** Every button of a message's keyboard, whatever the dialect (a list, or rows of buttons), with its words. */
const buttonsOf = (keyboard) => (keyboard?.buttons ?? []).flat().filter((b) => b && typeof b.text === 'string');

/**
 * The business's buttons under its message, as the messenger draws them: a link opens, any other button is pressed as
 * the messengers report a press (the customer's answer quoting the message, with the button's words).
 */
function keyboardOf(m) {
  const all = m.direction === 'outbound' ? buttonsOf(m.keyboard) : [];
  if (all.length === 0) return null;
  const block = document.createElement('div');
  block.className = 'keyboard';
  block.setAttribute('role', 'group');
  block.setAttribute('aria-label', 'Buttons of the message');
  for (const b of all) {
    if (b.url) {
      const link = document.createElement('a');
      link.href = b.url;
      link.target = '_blank';
      link.rel = 'noreferrer noopener';
      link.textContent = `${b.text} ↗`;
      block.append(link);
      continue;
    }
    const press = document.createElement('button');
    press.type = 'button';
    press.textContent = b.text;
    press.addEventListener('click', () => act('Press', () => call('POST', channelPath('/inbound'), { ...customer(), text: b.text, reply_to: m.message_id })));
    block.append(press);
  }
  return block;
}

function quote(q) {
  const block = document.createElement('blockquote');
  block.textContent = q.text ?? q.attachment_name ?? '…';
  return block;
}

async function showMessages() {
  const c = channel();
  const id = $('#customer').value.trim();
  if (!c || !id) return $('#messages').replaceChildren();
  const { chat_type, chat_id, phone } = customer();
  const key = chat_id ?? phone;
  const messages = await call('GET', `/sandbox/channels/${c.channel_id}/chats/${chat_type}/${encodeURIComponent(key)}/messages`).catch(() => []);
  // Drawn again only when something changed: a redraw would take the focus from a button and repeat the list aloud.
  const drawn = JSON.stringify([c.channel_id, c.capabilities.reactions, chat_type, key, messages]);
  if (drawn === lastDrawn) return;
  lastDrawn = drawn;
  $('#messages').replaceChildren(...folded(messages).map(messageItem));
}
let lastDrawn = null;

/** The chat shown now, as the feed's typing names it. */
function shownChat() {
  const c = channel();
  const { chat_type, chat_id } = customer();
  return c && chat_id ? { channel_id: c.channel_id, chat_type, chat_id } : null;
}

let typingTimer = null;
function showTyping(news) {
  const chat = shownChat();
  if (!chat || news.channel_id !== chat.channel_id || news.chat_type !== chat.chat_type || news.chat_id !== chat.chat_id) return;
  $('#typing').hidden = false;
  clearTimeout(typingTimer);
  typingTimer = setTimeout(() => ($('#typing').hidden = true), TYPING_SHOWN_MS);
}

let toldTypingAt = 0;
function tellTyping() {
  const chat = shownChat();
  if (!chat || Date.now() - toldTypingAt < TYPING_EVERY_MS) return;
  toldTypingAt = Date.now();
  call('POST', `/sandbox/channels/${chat.channel_id}/chats/${chat.chat_type}/${encodeURIComponent(chat.chat_id)}/typing`).catch(() => {});
}

/**
 * The account's news by push (Server-Sent Events read with fetch, which can send the token): a change reads the page
 * again, typing shows under the chat. A lost stream is opened again after a pause, and the page read again.
 */
async function follow() {
  let pending = null;
  const changed = () => (pending ??= setTimeout(() => ((pending = null), refresh()), 50));
  for (;;) {
    try {
      const res = await fetch('/v2/sandbox/feed', { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } });
      if (!res.ok || !res.body) throw new Error(String(res.status));
      changed();
      const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
      let buffer = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        buffer += value;
        let end;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const kind = /^event: (.+)$/m.exec(block)?.[1];
          const data = /^data: (.+)$/m.exec(block)?.[1];
          if (kind === 'change') changed();
          if (kind === 'typing' && data) showTyping(JSON.parse(data));
        }
      }
    } catch {
      // Offline, or the gateway restarting: tried again below.
    }
    await new Promise((resolve) => setTimeout(resolve, 3000));
  }
}

async function showTemplates() {
  const c = channel();
  if (c?.transport !== 'wapi') return;
  const templates = (await call('GET', '/templates').catch(() => [])).filter((t) => t.channel_id === c.channel_id);
  $('#templates').replaceChildren(
    ...templates.map((t) => {
      const item = document.createElement('li');
      const select = document.createElement('select');
      select.setAttribute('aria-label', `Moderation of ${t.name}`);
      options(select, ['APPROVED', 'PENDING', 'REJECTED', 'PAUSED', 'DISABLED']);
      select.value = t.status;
      select.addEventListener('change', () => act('Moderation', () => call('POST', `/sandbox/templates/${t.id}/moderation`, { status: select.value })));
      item.append(`${t.name} (${t.language}) `, select);
      return item;
    }),
  );
}

/**
 * Reads the page again. A call while a read is under way is not dropped: that read may have taken the channel or the
 * customer before they changed, so one more read follows it.
 */
let refreshing = null;
let again = false;
function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    try {
      do {
        again = false;
        await readPage();
      } while (again);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

async function readPage() {
  channels = await call('GET', '/channels');
  options(
    $('#channel'),
    channels.map((c) => c.channel_id),
  );
  for (const option of $('#channel').options) {
    const c = channels.find((x) => x.channel_id === option.value);
    option.textContent = `${c.name ?? c.transport} (${c.transport}, ${c.status})`;
  }
  showChannel();
  await Promise.all([showMessages(), showTemplates()]);
}

const channelPath = (rest) => `/sandbox/channels/${channel()?.channel_id}${rest}`;
const ownPhone = () => digits($('#own-phone').value) || undefined;
const actions = {
  scan: () => act('Scan', () => call('POST', channelPath('/scan'), ownPhone() ? { phone: ownPhone() } : {})),
  pairing: () => act('Pairing code', () => call('POST', channelPath('/scan'), {})),
  'set-password': () => act('Password', () => call('PUT', `/sandbox/phones/${ownPhone() ?? channel()?.phone}/two-factor`, { password: $('#password').value || null })),
  'clear-password': () => act('Password', () => call('PUT', `/sandbox/phones/${ownPhone() ?? channel()?.phone}/two-factor`, { password: null })),
  'send-file': () => write({ attachment: { url: SAMPLE_PICTURE, name: 'photo.png', mimetype: 'image/png' } }),
  block: () => act('Block', () => call('POST', channelPath('/customers'), { ...customer(), state: 'blocked' })),
  unblock: () => act('Unblock', () => call('POST', channelPath('/customers'), { ...customer(), state: 'ok' })),
  missing: () => act('Not on the messenger', () => call('POST', channelPath('/customers'), { ...customer(), state: 'missing' })),
  'create-group': () =>
    act('Group', async () => {
      const members = $('#group-members').value.split(',').map((name) => name.trim()).filter(Boolean).map((name) => ({ name }));
      const group = await call('POST', channelPath('/groups'), { chat_type: $('#group-type').value, name: $('#group-name').value, members });
      $('#group-id').value = group.group_id;
    }),
  member: () =>
    act('Member', () =>
      call('POST', channelPath(`/groups/${encodeURIComponent($('#group-id').value)}/members`), { members: [{ name: $('#member-name').value, status: $('#member-status').value }] }),
    ),
  logout: () => act('Log out', () => call('POST', channelPath('/logout'))),
  'stop-paying': () => act('Payment', () => call('POST', channelPath('/payment'), { paid: false })),
  pay: () => act('Payment', () => call('POST', channelPath('/payment'), { paid: true })),
  'revoke-token': () => act('Revoke', () => call('POST', channelPath('/revoke-token'))),
  'block-number': () => act('Block the number', () => call('POST', channelPath('/block'))),
  tier: () => act('Tier', () => call('POST', channelPath('/tier'), { tier: $('#tier').value })),
};

function write(content) {
  const body = { ...customer(), ...content, ...($('#customer-name').value ? { name: $('#customer-name').value } : {}), ...(replyTo ? { reply_to: replyTo.message_id } : {}) };
  return act('Message', async () => {
    await call('POST', channelPath('/inbound'), body);
    replyTo = null;
    $('#replying').hidden = true;
    $('#text').value = '';
  });
}

function start() {
  $('#phone').hidden = false;
  document.addEventListener('click', (event) => {
    const action = event.target.closest('button[data-action]')?.dataset.action;
    if (action) actions[action]();
  });
  $('#composer').addEventListener('submit', (event) => {
    event.preventDefault();
    if ($('#text').value.trim()) write({ text: $('#text').value });
  });
  $('#channel').addEventListener('change', refresh);
  $('#customer').addEventListener('change', refresh);
  $('#chat-type').addEventListener('change', refresh);
  const params = new URLSearchParams(location.search);
  if (params.get('customer')) $('#customer').value = params.get('customer');
  if (params.get('name')) $('#customer-name').value = params.get('name');
  $('#text').addEventListener('input', tellTyping);
  refresh();
  follow();
}

if (token) start();
else {
  $('#token-form').hidden = false;
  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    token = $('#token').value.trim();
    sessionStorage.setItem('sandbox-phone-token', token);
    $('#token-form').hidden = true;
    start();
  });
}
