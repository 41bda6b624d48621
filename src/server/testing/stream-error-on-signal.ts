/**
 * Loaded before a spawned gateway (`--import`) in crash tests of personal WhatsApp sessions: on SIGUSR2, every open
 * connection of the real library (Baileys) receives WhatsApp's stream error `<conflict type="replaced"/>`, as WhatsApp
 * sends it to a connection whose device connected again elsewhere. The node goes through the library's own handler
 * (which closes the connection with 440, "replaced"); only its encrypted framing is skipped, which the fake WhatsApp
 * server has no way to send. A signal sent while the process is stopped (SIGSTOP) is handled as soon as it wakes,
 * as bytes WhatsApp wrote meanwhile would be read.
 */
import { WebSocketClient } from 'baileys/lib/Socket/Client/websocket.js';

const clients = new Set<WebSocketClient>();
const connect = WebSocketClient.prototype.connect;
WebSocketClient.prototype.connect = function (this: WebSocketClient) {
  clients.add(this);
  return connect.call(this);
};

process.on('SIGUSR2', () => {
  for (const client of clients) {
    if (!client.isOpen) continue;
    client.emit('CB:stream:error', { tag: 'stream:error', attrs: {}, content: [{ tag: 'conflict', attrs: { type: 'replaced' } }] });
  }
});
