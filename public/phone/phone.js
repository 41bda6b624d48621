// The sandbox phone: every action is one call of the sandbox API (/v2/sandbox/…) with the account's client token.
// The token comes in the address's fragment (#token=…, which browsers never send to a server) or from the form,
// and is kept for this tab only.

const $ = (selector) => document.querySelector(selector);
const QR_TRANSPORTS = ['whatsapp', 'tgapi', 'viber', 'max'];
const BOTS = ['telegram', 'maxbot'];
const SAMPLE_PICTURE = new URL('sample.png', location.href).href;

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

function messageItem(m) {
  const item = document.createElement('li');
  item.className = m.direction === 'inbound' ? 'mine' : 'theirs';
  const words = document.createElement('p');
  words.textContent = m.text ?? (m.attachment ? `📎 ${m.attachment.name ?? m.attachment.url}` : m.template ? `Template ${m.template.id}` : '');
  if (m.deleted) words.classList.add('deleted');
  const meta = document.createElement('small');
  // The customer's own messages are theirs to edit and delete; the business's show how far they got.
  const who = m.direction === 'inbound' ? 'you' : `${m.author?.name ?? 'business'} · ${m.status}`;
  meta.textContent = `${who}${m.edited_at ? ' · edited' : ''}${m.deleted ? ' · deleted' : ''}`;
  item.append(...(m.quoted_message ? [quote(m.quoted_message)] : []), words, meta);
  if (m.deleted) return item;
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
  if (m.direction === 'inbound') {
    button('Edit', () => {
      const text = prompt('The message now says', m.text ?? '');
      if (text) act('Edit', () => call('POST', `/sandbox/messages/${m.message_id}/edit`, { text }));
    });
    button('Delete', () => act('Delete', () => call('POST', `/sandbox/messages/${m.message_id}/delete`)));
  } else if (m.status !== 'read' && m.status !== 'failed') {
    button('Mark read', () => act('Read', () => call('POST', `/sandbox/messages/${m.message_id}/status`, { status: 'read' })));
  }
  item.append(buttons);
  return item;
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
  $('#messages').replaceChildren(...messages.map(messageItem));
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

let refreshing = false;
async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
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
  } finally {
    refreshing = false;
  }
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
  refresh();
  setInterval(refresh, 1500);
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
