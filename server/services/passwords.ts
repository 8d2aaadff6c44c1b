import { argon2, randomBytes, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';

const argon2Async = promisify(argon2);

// OWASP's argon2id baseline: 19 MiB, 2 passes, 1 lane.
interface Argon2Params {
  memory: number;
  passes: number;
  parallelism: number;
  tagLength: number;
}
const PARAMS: Argon2Params = { memory: 19_456, passes: 2, parallelism: 1, tagLength: 32 };

async function derive(secret: string, nonce: Buffer, params: Argon2Params): Promise<Buffer> {
  return argon2Async('argon2id', { message: secret, nonce, ...params });
}

/** PHC-style string: $argon2id$v=19$m=…,t=…,p=…$salt$hash (base64url). */
export async function hashSecret(secret: string): Promise<string> {
  const nonce = randomBytes(16);
  const hash = await derive(secret, nonce, PARAMS);
  return `$argon2id$v=19$m=${PARAMS.memory},t=${PARAMS.passes},p=${PARAMS.parallelism}$${nonce.toString('base64url')}$${hash.toString('base64url')}`;
}

export async function verifySecret(secret: string, stored: string): Promise<boolean> {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([\w-]+)\$([\w-]+)$/.exec(stored);
  if (!match) return false;
  const [, m, t, p, salt, hash] = match as unknown as [string, string, string, string, string, string];
  const expected = Buffer.from(hash, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), {
    memory: Number(m),
    passes: Number(t),
    parallelism: Number(p),
    tagLength: expected.length,
  });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// A real hash of nothing: unknown e-mails cost the same time as wrong passwords.
let decoy: Promise<string> | null = null;
export async function verifyAgainstDecoy(secret: string): Promise<false> {
  decoy ??= hashSecret(randomBytes(16).toString('hex'));
  await verifySecret(secret, await decoy);
  return false;
}
