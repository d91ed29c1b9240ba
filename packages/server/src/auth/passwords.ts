import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (OWASP: m=19 MiB, t=2, p=1). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, { algorithm: 2 });
}

let dummyHash: Promise<string> | undefined;

/** Verifies even when there is no hash, so the answer time does not tell whether an account exists. */
export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    dummyHash ??= hashPassword('not-a-real-password-0');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}
