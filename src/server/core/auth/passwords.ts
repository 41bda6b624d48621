import { hash, verify } from '@node-rs/argon2';

/**
 * Secrets a person chooses (partner secrets, account owners' passwords) are kept as Argon2id hashes, the library's
 * defaults (OWASP's minimum: 19 MiB, 2 passes). A missing record is verified against a dummy hash, so the answer
 * takes as long whether the login exists or not.
 */
export const hashPassword = (password: string): Promise<string> => hash(password);

let dummy: Promise<string> | null = null;

export async function passwordMatches(password: string, stored: string | undefined): Promise<boolean> {
  if (stored === undefined) {
    dummy ??= hash('no such login');
    await verify(await dummy, password).catch(() => false);
    return false;
  }
  try {
    return await verify(stored, password);
  } catch {
    return false;
  }
}
