import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * Slow hashes of what people and clients prove themselves with. One format and one verifier for
 * both costs: `scrypt$N$r$p$salt$hash`, so the parameters travel with the hash and can be raised later.
 */
interface Cost {
  N: number;
  r: number;
  p: number;
}

// API secrets carry 192 random bits, so 2^14 (16 MiB, ~40 ms) already puts brute force out of
// reach while keeping a cold check cheap.
const secretCost: Cost = { N: 2 ** 14, r: 8, p: 1 };
// Passwords are chosen by people and guessable: OWASP Password Storage Cheat Sheet, scrypt with
// N=2^17, r=8, p=1 (128 MiB per hash).
const passwordCost: Cost = { N: 2 ** 17, r: 8, p: 1 };
const keyLength = 32;
/** The most memory a stored hash may ask for (twice the password cost's): more is refused rather than run. */
const maxMemory = 256 * 1024 * 1024;

// scrypt needs 128 * N * r bytes; Node refuses past maxmem (32 MiB by default), so the limit is
// set from the cost itself, with room for the rest of its working memory.
const memoryOf = ({ N, r }: Cost): number => 128 * N * r + 1024 * 1024;

/**
 * scrypt memory this process may hold at once: two password checks (or many secret checks). Without
 * it, a burst of sign-ins for many emails from many addresses (each under the throttle) would run
 * one 128 MiB derivation per thread-pool thread; past it, derivations wait their turn.
 */
const memoryBudget = 2 * memoryOf(passwordCost);
let memoryInFlight = 0;
const waiting: (() => void)[] = [];

/** Bytes of scrypt memory in use now (tests check the budget holds). */
export const scryptMemoryInFlight = (): number => memoryInFlight;

async function withinBudget<T>(bytes: number, run: () => Promise<T>): Promise<T> {
  // A single derivation larger than the budget still runs, alone.
  while (memoryInFlight > 0 && memoryInFlight + bytes > memoryBudget) await new Promise<void>((resolve) => waiting.push(resolve));
  memoryInFlight += bytes;
  try {
    return await run();
  } finally {
    memoryInFlight -= bytes;
    // Every waiter looks again; those that still do not fit wait again.
    for (const wake of waiting.splice(0)) wake();
  }
}

function derive(secret: string, salt: Buffer, cost: Cost): Promise<Buffer> {
  const options: ScryptOptions = { ...cost, maxmem: memoryOf(cost) };
  return withinBudget(
    memoryOf(cost),
    () =>
      new Promise((resolve, reject) => {
        scrypt(secret, salt, keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
      }),
  );
}

async function hash(secret: string, cost: Cost): Promise<string> {
  const salt = randomBytes(16);
  const derived = await derive(secret, salt, cost);
  return ['scrypt', cost.N, cost.r, cost.p, salt.toString('base64url'), derived.toString('base64url')].join('$');
}

/** Constant-time comparison of the derived key; a malformed or absurdly costly stored hash never matches. */
async function verify(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, expectedText] = stored.split('$');
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  const sane =
    Number.isInteger(Math.log2(cost.N)) && cost.N >= 2 && cost.r >= 1 && cost.p >= 1 && cost.p <= 16 && 128 * cost.N * cost.r <= maxMemory;
  if (scheme !== 'scrypt' || !salt || !expectedText || !sane) return false;
  const expected = Buffer.from(expectedText, 'base64url');
  const actual = await derive(secret, Buffer.from(salt, 'base64url'), cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** An API key's secret, at the secret cost. */
export const hashSecret = (secret: string): Promise<string> => hash(secret, secretCost);
export const verifySecret = verify;

/** A person's password, at OWASP's password cost. */
export const hashPassword = (password: string): Promise<string> => hash(password, passwordCost);
export const verifyPassword = verify;
