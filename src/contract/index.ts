export * from './envelope.ts';
export * from './errors.ts';
export * from './accounts.ts';
export * from './events.ts';
export * from './webhooks.ts';
export * from './limits.ts';
export * from './channels.ts';
export * from './channel-api.ts';
