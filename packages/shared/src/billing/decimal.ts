/**
 * Exact arithmetic for money and volumes (docs/decisions.md "Price maths: exact rationals over
 * BigInt"). A value is a reduced fraction of two BigInts, so a sum of tier prices or a conversion
 * through 3.785411784 litres never drifts; it is rounded once, when shown as an amount.
 */
export type Exact = { readonly n: bigint; readonly d: bigint };

const DECIMAL = /^(-?)(\d+)(?:\.(\d+))?$/;

function gcd(a: bigint, b: bigint): bigint {
  let x = a < 0n ? -a : a;
  let y = b < 0n ? -b : b;
  while (y !== 0n) [x, y] = [y, x % y];
  return x;
}

function exact(n: bigint, d: bigint): Exact {
  if (d === 0n) throw new RangeError('division by zero');
  const sign = d < 0n ? -1n : 1n;
  const g = gcd(n, d) || 1n;
  return { n: (sign * n) / g, d: (sign * d) / g };
}

export const EXACT_ZERO: Exact = { n: 0n, d: 1n };

/** Reads a decimal string such as "12", "0.0035" or "-3.5"; anything else throws. */
export function parseExact(text: string): Exact {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new RangeError(`not a decimal: ${text}`);
  const [, sign = '', whole = '0', fraction = ''] = match;
  const n = BigInt(`${sign}${whole}${fraction}`);
  return exact(n, 10n ** BigInt(fraction.length));
}

export const exactInteger = (value: bigint | number): Exact => ({ n: BigInt(value), d: 1n });

export const addExact = (a: Exact, b: Exact): Exact => exact(a.n * b.d + b.n * a.d, a.d * b.d);
export const subtractExact = (a: Exact, b: Exact): Exact => exact(a.n * b.d - b.n * a.d, a.d * b.d);
export const multiplyExact = (a: Exact, b: Exact): Exact => exact(a.n * b.n, a.d * b.d);
export const divideExact = (a: Exact, b: Exact): Exact => exact(a.n * b.d, a.d * b.n);

/** -1, 0 or 1 as a is less than, equal to or greater than b. */
export function compareExact(a: Exact, b: Exact): -1 | 0 | 1 {
  const left = a.n * b.d;
  const right = b.n * a.d;
  return left < right ? -1 : left > right ? 1 : 0;
}

export const minExact = (a: Exact, b: Exact): Exact => (compareExact(a, b) <= 0 ? a : b);
export const maxExact = (a: Exact, b: Exact): Exact => (compareExact(a, b) >= 0 ? a : b);

/**
 * The value with exactly `digits` decimals, rounded half away from zero (the usual rule on
 * invoices): 2.345 → "2.35", -2.345 → "-2.35".
 */
export function formatExact(value: Exact, digits: number): string {
  const scale = 10n ** BigInt(digits);
  const negative = value.n < 0n;
  const magnitude = negative ? -value.n : value.n;
  const scaled = magnitude * scale;
  let units = scaled / value.d;
  if ((scaled % value.d) * 2n >= value.d) units += 1n;
  const text = units.toString().padStart(digits + 1, '0');
  const whole = text.slice(0, text.length - digits);
  const fraction = digits > 0 ? `.${text.slice(text.length - digits)}` : '';
  return `${negative && units !== 0n ? '-' : ''}${whole}${fraction}`;
}

/** The shortest exact decimal spelling when there is one within `maxDigits` decimals, else rounded. */
export function toDecimalString(value: Exact, maxDigits = 12): string {
  const text = formatExact(value, maxDigits);
  return text.includes('.') ? text.replace(/\.?0+$/, '') : text;
}
