/** The tag on every host bridge message (bridge.ts), apart from the schemas so that a page can name it alone. */
export const bridgeProtocol = 'messaging-gateway.bridge/1';
