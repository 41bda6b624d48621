/**
 * The customer's phone as the fake WhatsApp server plays it, made to write the way a phone does: each message
 * encrypted with Signal to the account's linked device, as `<enc type="pkmsg">` (a session started from the device's
 * key bundle) or `<enc type="msg">` (the session both sides already share). The fake's own customers decrypt what the
 * account sends them with a Signal session per customer; the phone encrypts with that same session, so both
 * directions run one ratchet, as on a real phone. A message the account could not decrypt (it asks again with a
 * retry receipt) is encrypted again, from a fresh session, and written under the same id.
 *
 * The fake keeps each customer's Signal state to itself: `signalSeamReplacements` add, in memory, one method to its
 * Signal store (see whatsapp-server-hooks.ts for how the module is patched).
 */
import type { WaNode } from './whatsapp-server-hooks.ts';

/** What a phone knows of the account's linked device: its registration and public keys (from the device's login). */
export interface DeviceBundle {
  registrationId: number;
  /** The identity key, 33 bytes (0x05 and the Curve25519 key). */
  identityKey: Buffer;
  signedPreKey: { keyId: number; publicKey: Buffer; signature: Buffer };
}

/** The method added to the fake's Signal store, in the module's own words: it shares the store's bundles, sessions and queue. */
const encryptMethod = `
    async encryptDirectMessage(params) {
        const senderJid = canonicalizeWhatsAppUserCorrelationJid(params.senderJid);
        const phoneNumberKey = senderJid ? signalBundleIdentityKey(senderJid) : undefined;
        if (!phoneNumberKey) throw new Error("WhatsApp customer JID expected: " + params.senderJid);
        const lidKey = this.resolveAssociatedLid(phoneNumberKey);
        const identityKey = lidKey && this.#bundles.has(lidKey) ? lidKey : phoneNumberKey;
        const remoteAddress = signalProtocolAddress(params.remoteJid);
        const address = new ProtocolAddress(remoteAddress.name, remoteAddress.deviceId);
        return await this.#runTransaction(identityKey, async () => {
            let bundle = this.#bundles.get(identityKey);
            if (!bundle) {
                bundle = this.#createBundle();
                this.#bundles.set(identityKey, bundle);
            }
            const sessions = this.#sessions.get(identityKey) ?? new Map();
            const storage = {
                async loadSession(id) {
                    const session = sessions.get(id);
                    return session ? cloneSignalSession(session) : undefined;
                },
                async storeSession(id, session) {
                    sessions.set(id, cloneSignalSession(session));
                },
                isTrustedIdentity: () => true,
                loadPreKey: async () => undefined,
                removePreKey() {},
                loadSignedPreKey: () => signalKeyPair(bundle.signedPreKey.keyPair),
                getOurRegistrationId: () => bundle.registrationId,
                getOurIdentity: () => signalKeyPair(bundle.identityKey),
            };
            const open = sessions.get(address.toString())?.haveOpenSession();
            if (params.fresh || !open) {
                if (!params.device) throw new Error("no Signal session with the account and no key bundle of its device");
                await new SessionBuilder(storage, address).initOutgoing(params.device);
            }
            const { type, body } = await new SessionCipher(storage, address).encrypt(params.plaintext);
            this.#sessions.set(identityKey, sessions);
            return { type: type === 3 ? "pkmsg" : "msg", ciphertext: Buffer.from(body, "binary") };
        });
    }
    #createBundle() {`;

/** Added to the fake server's module: the phone's encryption, beside the store's decryption. */
export const signalSeamReplacements: [string, string][] = [
  ['import { ProtocolAddress, SessionCipher, SessionRecord } from "libsignal";', 'import { ProtocolAddress, SessionBuilder, SessionCipher, SessionRecord } from "libsignal";'],
  ['    #createBundle() {', encryptMethod.slice(1)],
];

/** The part of a server connection the phone writes through: its Signal store and the account it serves. */
interface SignalConnection {
  params: {
    selfJid: string;
    signalBundles: {
      encryptDirectMessage(params: { senderJid: string; remoteJid: string; plaintext: Buffer; device?: DeviceBundle; fresh?: boolean }): Promise<{ type: 'pkmsg' | 'msg'; ciphertext: Buffer }>;
    };
  };
}

/**
 * The phone's side of a customer's message: a `<message>` node the fake would write as `<plaintext>` (the message's
 * protobuf) comes back as `<enc v="2">`, the protobuf padded as WhatsApp pads it and encrypted; any other node as is.
 */
export async function encryptedAsPhone(connection: unknown, node: WaNode, device: DeviceBundle, options: { fresh?: boolean } = {}): Promise<WaNode> {
  const children = Array.isArray(node.content) ? node.content : [];
  const plain = node.tag === 'message' ? children.find((c) => c.tag === 'plaintext') : undefined;
  if (!plain || !(plain.content instanceof Uint8Array) || !node.attrs.from) return node;
  const { writeRandomPadMax16 } = await import('baileys');
  const { params } = connection as SignalConnection;
  const { type, ciphertext } = await params.signalBundles.encryptDirectMessage({
    senderJid: node.attrs.from,
    remoteJid: params.selfJid,
    plaintext: writeRandomPadMax16(plain.content),
    device,
    ...(options.fresh ? { fresh: true } : {}),
  });
  return { ...node, content: children.map((c) => (c === plain ? { tag: 'enc', attrs: { v: '2', type }, content: ciphertext } : c)) };
}

/** The key bundle of a device, from the credentials the library keeps (what it told WhatsApp at its login). */
export function deviceBundleOf(creds: { registrationId: number; signedIdentityKey: { public: Uint8Array }; signedPreKey: { keyId: number; keyPair: { public: Uint8Array }; signature: Uint8Array } }): DeviceBundle {
  const signalKey = (key: Uint8Array) => Buffer.concat([Buffer.from([5]), Buffer.from(key)]);
  return {
    registrationId: creds.registrationId,
    identityKey: signalKey(creds.signedIdentityKey.public),
    signedPreKey: { keyId: creds.signedPreKey.keyId, publicKey: signalKey(creds.signedPreKey.keyPair.public), signature: Buffer.from(creds.signedPreKey.signature) },
  };
}
