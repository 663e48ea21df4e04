import { randomInt } from 'node:crypto';

/** The Luhn check digit for a number missing its last digit. */
function luhnCheckDigit(partial: string): number {
  let sum = 0;
  for (let i = 0; i < partial.length; i++) {
    let d = Number(partial[partial.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return (10 - (sum % 10)) % 10;
}

export function isLuhnValid(pan: string): boolean {
  return /^\d{12,19}$/.test(pan) && luhnCheckDigit(pan.slice(0, -1)) === Number(pan.slice(-1));
}

/** A 16-digit, Luhn-valid number under a 6-digit BIN. */
export function generatePan(bin: string): string {
  let body = bin;
  while (body.length < 15) body += String(randomInt(10));
  return body + luhnCheckDigit(body);
}
