import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { realtimeErrors } from '../../contract/realtime.ts';
import { connectRealtime, type RealtimeSocket } from './socket.ts';

/** Stands in for socket.io's client socket: what the frame listens to, and whether socket.io would retry. */
class FakeSocket extends EventEmitter {
  active = true;
  io = new EventEmitter();
  disconnect() {}
}

function frame() {
  const socket = new FakeSocket();
  const onSessionEnded = vi.fn();
  const connect = vi.fn((_url: string, _options: unknown) => socket as unknown as RealtimeSocket);
  connectRealtime({ url: 'http://127.0.0.1:1', token: () => 't', onEvent: () => {}, onResync: () => {}, onSessionEnded, connect });
  return { socket, onSessionEnded, options: connect.mock.calls[0]![1] };
}

const refusal = () => Object.assign(new Error(realtimeErrors.unauthorized), { data: { error: realtimeErrors.unauthorized } });

describe("the frame's realtime connection", () => {
  it('retries a lost connection by itself, at most 3 s apart', () => {
    expect(frame().options).toMatchObject({ reconnection: true, reconnectionDelay: 500, reconnectionDelayMax: 3_000, randomizationFactor: 0.5 });
  });

  it('ends the session when the gateway refuses its token, rather than saying it reconnects for good', () => {
    const { socket, onSessionEnded } = frame();
    socket.active = false;
    socket.emit('connect_error', refusal());
    expect(onSessionEnded).toHaveBeenCalledWith({ reason: 'expired' });
  });

  it('keeps the session through a gateway that cannot be reached (socket.io retries)', () => {
    const { socket, onSessionEnded } = frame();
    socket.emit('connect_error', new Error('websocket error'));
    socket.emit('connect_error', refusal());
    expect(onSessionEnded).not.toHaveBeenCalled();
  });
});
