// Connection and protocol: the only module that talks to the server.
import { io } from '/vendor/socket.io/socket.io.esm.min.js';

export function connect(handlers) {
  const socket = io({ transports: ['websocket'] });
  socket.on('connect', () => handlers.onStatus?.('connected'));
  socket.on('disconnect', () => handlers.onStatus?.('disconnected'));
  socket.on('position', (data) => handlers.onPosition?.(data));
  return socket;
}
