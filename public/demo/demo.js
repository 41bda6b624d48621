// The demo CRM's page. What a CRM's page does to embed the gateway's frames:
//  1. ask ITS OWN server for a frame link (the server holds the gateway token: see src/server/demo/routes.ts);
//  2. put the link in an iframe;
//  3. listen to the frame's bridge messages (postMessage), checking where they come from;
//  4. when a frame says its session expired, ask for a new link.

const BRIDGE = 'messaging-gateway.bridge/1';
const $ = (selector) => document.querySelector(selector);

async function post(path, body) {
  const res = await fetch(path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body ?? {}) });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return res.json();
}

// Which frame is which, and how to get it a fresh link.
const frames = {
  card: { element: () => $('#card-frame'), link: () => post('/demo/api/links/chats', { scope: 'card' }) },
  inbox: { element: () => $('#inbox-frame'), link: () => post('/demo/api/links/chats', { scope: 'global' }) },
  connect: { element: () => $('#connect-frame'), link: () => post('/demo/api/links/channels') },
};

async function open(name) {
  const { url } = await frames[name].link();
  frames[name].element().src = url;
}

const nameOf = (source) => Object.keys(frames).find((name) => frames[name].element().contentWindow === source);

// The log: newest first.
function logEntry(kind, title, detail, verified = true) {
  const item = document.createElement('li');
  item.className = kind;
  const head = document.createElement('div');
  const badge = document.createElement('span');
  badge.className = 'kind';
  badge.textContent = kind === 'bridge' ? 'frame → page' : verified ? 'webhook' : 'webhook (bad signature)';
  const name = document.createElement('strong');
  name.textContent = title;
  const time = document.createElement('time');
  time.textContent = new Date().toLocaleTimeString();
  head.append(badge, ' ', name, ' ', time);
  const details = document.createElement('details');
  const summary = document.createElement('summary');
  summary.textContent = 'body';
  const pre = document.createElement('pre');
  pre.textContent = JSON.stringify(detail, null, 2);
  details.append(summary, pre);
  item.append(head, details);
  $('#log').prepend(item);
}

// The frames' language and theme, as a CRM passes its user's own: the host says `set_options` to each frame that is
// ready, and again whenever the user changes them here. Kept in this browser for the next visit.
const looks = { lang: localStorage.getItem('demo-lang') ?? 'en', theme: localStorage.getItem('demo-theme') ?? 'auto' };
function tellLooks(name) {
  frames[name].element().contentWindow?.postMessage({ protocol: BRIDGE, type: 'set_options', payload: looks }, location.origin);
}
for (const [key, select] of [['lang', $('#frame-lang')], ['theme', $('#frame-theme')]]) {
  select.value = looks[key];
  select.addEventListener('change', () => {
    looks[key] = select.value;
    localStorage.setItem(`demo-${key}`, select.value);
    for (const name of Object.keys(frames)) if (frames[name].element().src) tellLooks(name);
  });
}

window.addEventListener('message', (event) => {
  // Only the frames of this page, from the gateway's origin (here the page's own), speaking the bridge's protocol.
  const frame = nameOf(event.source);
  if (!frame || event.origin !== location.origin || event.data?.protocol !== BRIDGE) return;
  const { type, payload } = event.data;
  logEntry('bridge', `${type} (${frame})`, payload);
  if (type === 'session_expired') open(frame);
  if (type === 'ready') tellLooks(frame);
  if (type === 'unanswered_count_changed' && frame === 'inbox') {
    $('#unanswered').hidden = payload.total === 0;
    $('#unanswered').textContent = `${payload.total} unanswered`;
  }
});

// The webhooks the demo's server received (it checks each signature before logging it).
let after = 0;
async function pollWebhooks() {
  try {
    const res = await fetch(`/demo/api/log?after=${after}`);
    const { entries } = await res.json();
    for (const entry of entries) {
      after = entry.seq;
      logEntry('webhook', entry.event, entry.body, entry.verified);
    }
  } finally {
    setTimeout(pollWebhooks, 1000);
  }
}

// Tabs, as the WAI-ARIA tabs pattern has them; the connect frame is loaded the first time its tab is shown.
function select(tab) {
  for (const other of document.querySelectorAll('[role=tab]')) {
    const selected = other === tab;
    other.setAttribute('aria-selected', String(selected));
    other.tabIndex = selected ? 0 : -1;
    $(`#${other.getAttribute('aria-controls')}`).hidden = !selected;
  }
  if (tab.id === 'tab-admin' && !$('#connect-frame').src) open('connect');
}
for (const tab of document.querySelectorAll('[role=tab]')) {
  tab.addEventListener('click', () => select(tab));
  tab.addEventListener('keydown', (event) => {
    if (event.key !== 'ArrowRight' && event.key !== 'ArrowLeft') return;
    const tabs = [...document.querySelectorAll('[role=tab]')];
    const next = tabs[(tabs.indexOf(tab) + (event.key === 'ArrowRight' ? 1 : tabs.length - 1)) % tabs.length];
    next.focus();
    select(next);
  });
}

const session = await (await fetch('/demo/api/session')).json();
for (const link of document.querySelectorAll('#phone-link, .phone-link')) {
  if (session.phone_url) link.href = session.phone_url;
  else link.replaceWith(link.textContent === 'Sandbox phone' ? '' : 'a real phone');
}
await Promise.all([open('card'), open('inbox')]);
pollWebhooks();
