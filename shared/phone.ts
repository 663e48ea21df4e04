import {
  type CountryCode,
  Metadata,
  getCountries,
  getCountryCallingCode,
  parsePhoneNumberFromString,
} from 'libphonenumber-js/max';

/**
 * Phone numbers, one implementation for the contract (server and forms) and the screens. The full ("max")
 * metadata: a number must be in a range its country allocates, not only of a possible length.
 */

/** Typed forms the API accepts before parsing: "+233 24 123 4567", "00233241234567", "233241234567". */
function international(raw: string): string {
  const v = raw.trim();
  if (v.startsWith('+')) return v;
  if (v.startsWith('00')) return `+${v.slice(2)}`;
  // A lone leading 0 is a national number without its country: nothing to parse it against.
  return /^[1-9]/.test(v) ? `+${v}` : v;
}

/**
 * The number in E.164 ("+233241234567"), or null when it is not a valid number of its country. A trunk 0
 * typed after the country code ("+233 024 123 4567") is dropped, as a caller abroad would dial it.
 */
export function toE164(raw: string): string | null {
  const p = parsePhoneNumberFromString(international(raw));
  return p?.isValid() ? p.number : null;
}

const regionNames = (() => {
  try {
    return new Intl.DisplayNames(['en'], { type: 'region' });
  } catch {
    return null;
  }
})();

/** The country's English name ("Ghana"), or its code where the runtime has no names. */
function countryName(country: CountryCode): string {
  return regionNames?.of(country) ?? country;
}

/** "+233241234567" → "024 123 4567 (Ghana)"; a number that does not parse is shown as stored. */
export function formatPhone(stored: string | null | undefined): string {
  if (!stored) return '';
  const p = parsePhoneNumberFromString(international(stored));
  if (!p?.isValid() || !p.country) return stored;
  return `${p.formatNational()} (${countryName(p.country)})`;
}

const metadata = new Metadata();

/**
 * Whether a 0 typed first after the country code is the trunk prefix people dial at home (Ghana's
 * "024…"), not a digit of the number: true where the country's trunk prefix is 0 and none of its
 * numbers starts with 0 (Italy's "06…" keeps its 0).
 */
export function isTrunkZero(country: string): boolean {
  try {
    metadata.selectNumberingPlan(country.toUpperCase() as CountryCode);
  } catch {
    return false;
  }
  // Both methods exist on the plan; the package's types leave them out.
  const plan = metadata.numberingPlan as unknown as { nationalPrefix(): unknown; nationalNumberPattern(): string };
  if (plan?.nationalPrefix() !== '0') return false;
  const numbers = new RegExp(`^(?:${plan.nationalNumberPattern()})$`);
  for (let d = 0; d < 10; d++) for (let n = 3; n <= 15; n++) if (numbers.test(`0${String(d).repeat(n)}`)) return false;
  return true;
}

/** Whether `digits` is a calling code ("233") all of whose countries dial a trunk 0 at home. */
export function isTrunkZeroCode(digits: string): boolean {
  const countries = getCountries().filter((c) => getCountryCallingCode(c) === digits);
  return countries.length > 0 && countries.every(isTrunkZero);
}
