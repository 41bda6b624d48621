import { createHash, pbkdf2Sync } from 'node:crypto';

/**
 * Telegram's side of the two-factor password check (SRP-2048 as described in Telegram's "2FA" article): the server
 * keeps only the verifier v = g^x mod p of the password, sends g^b, and checks the client's proof M1 without the
 * password ever being sent. Written here from the article, not taken from the client library, so that the library's
 * own computation is what is tested.
 */

/** RFC 3526's 2048-bit MODP prime (a safe prime, as Telegram's is), with g = 2. */
const P = BigInt(
  '0xFFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DDEF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7EDEE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3BE39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA051015728E5A8AACAA68FFFFFFFFFFFFFFFF',
);
const G = 2n;

const sha256 = (...parts: Uint8Array[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const bytesOf = (n: bigint) => Buffer.from(n.toString(16).padStart(512, '0'), 'hex');
const numberOf = (b: Uint8Array) => BigInt(`0x${Buffer.from(b).toString('hex') || '0'}`);

function modPow(base: bigint, exp: bigint, mod: bigint): bigint {
  let result = 1n;
  let b = base % mod;
  let e = exp;
  while (e > 0n) {
    if (e & 1n) result = (result * b) % mod;
    b = (b * b) % mod;
    e >>= 1n;
  }
  return result;
}

/** PH2 of the article: SH(pbkdf2(sha512, SH(SH(password, salt1), salt2), salt1, 100000), salt2). */
function passwordHash(password: string, salt1: Buffer, salt2: Buffer): Buffer {
  const sh = (data: Buffer, salt: Buffer) => sha256(salt, data, salt);
  const ph1 = sh(sh(Buffer.from(password, 'utf8'), salt1), salt2);
  return sh(pbkdf2Sync(ph1, salt1, 100_000, 64, 'sha512'), salt2);
}

export interface SrpChallenge {
  algo: { salt1: Buffer; salt2: Buffer; g: number; p: Buffer };
  srpB: Buffer;
  srpId: bigint;
}

/** One account's password as Telegram keeps it: its verifier, and the challenge of the current check. */
export function srpVerifier(password: string, seed: () => Buffer) {
  const salt1 = seed().subarray(0, 16);
  const salt2 = seed().subarray(0, 16);
  const v = modPow(G, numberOf(passwordHash(password, salt1, salt2)), P);
  const k = numberOf(sha256(bytesOf(P), bytesOf(G)));
  let current: { b: bigint; B: Buffer; id: bigint } | null = null;
  let nextId = 1n;
  return {
    /** `account.getPassword`: a fresh g^b (the article's B = k·v + g^b). */
    challenge(): SrpChallenge {
      const b = numberOf(Buffer.concat([seed(), seed(), seed(), seed(), seed(), seed(), seed(), seed()]));
      const B = bytesOf((k * v + modPow(G, b, P)) % P);
      current = { b, B, id: nextId++ };
      return { algo: { salt1, salt2, g: Number(G), p: bytesOf(P) }, srpB: B, srpId: current.id };
    },
    /** `auth.checkPassword`: whether the client's A and M1 prove the password, for the current challenge only. */
    check(proof: { srpId: bigint; A: Uint8Array; M1: Uint8Array }): boolean {
      if (!current || proof.srpId !== current.id) return false;
      const { b, B } = current;
      current = null;
      const A = numberOf(proof.A);
      if (A % P === 0n) return false;
      const u = numberOf(sha256(bytesOf(A), B));
      const S = modPow((A * modPow(v, u, P)) % P, b, P);
      const K = sha256(bytesOf(S));
      const hp = sha256(bytesOf(P));
      const hg = sha256(bytesOf(G));
      const xored = Buffer.from(hp.map((byte, i) => byte ^ hg[i]!));
      const M1 = sha256(xored, sha256(salt1), sha256(salt2), bytesOf(A), B, K);
      return Buffer.compare(M1, Buffer.from(proof.M1)) === 0;
    },
  };
}
