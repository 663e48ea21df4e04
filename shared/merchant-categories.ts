/**
 * Merchant categories: groups of merchant category codes (ISO 18245 MCCs) a card's or the program's
 * controls allow or block. Names follow Stripe Issuing where one of its categories fits a group
 * (`airlines`, `gambling`, `money_transfer` as the issue names them); each group lists its codes,
 * ranges spelled out (3000-3350 are the airlines' own codes, 3351-3500 car rental, 3501-3999 hotels).
 * A code in no group has no category (`categoryOf` answers null): an allow list never lets it through,
 * a block list never stops it.
 */
export interface MerchantCategory {
  name: string;
  label: string;
  mccs: string[];
}

const range = (from: number, to: number) =>
  Array.from({ length: to - from + 1 }, (_, i) => String(from + i).padStart(4, '0'));
const codes = (...parts: Array<number | [number, number]>) =>
  parts.flatMap((p) => (Array.isArray(p) ? range(p[0], p[1]) : [String(p).padStart(4, '0')]));

export const MERCHANT_CATEGORIES: readonly MerchantCategory[] = [
  { name: 'airlines', label: 'Airlines', mccs: codes([3000, 3350], 4511) },
  { name: 'car_rental', label: 'Car rental', mccs: codes([3351, 3500], 7512, 7513, 7519) },
  { name: 'hotels_lodging', label: 'Hotels and lodging', mccs: codes([3501, 3999], 7011, 7012, 7032, 7033) },
  {
    name: 'travel_transport',
    label: 'Travel and transport',
    mccs: codes(4011, 4111, 4112, 4119, 4121, 4131, 4214, 4411, 4457, 4468, 4582, 4722, 4784, 4789, 7523),
  },
  { name: 'fuel', label: 'Fuel', mccs: codes(5541, 5542, 5983) },
  { name: 'groceries', label: 'Groceries', mccs: codes(5411, 5422, 5441, 5451, 5462, 5499) },
  { name: 'restaurants', label: 'Restaurants and bars', mccs: codes(5811, 5812, 5813, 5814) },
  {
    name: 'retail',
    label: 'Shops and retail',
    mccs: codes(
      5200,
      5211,
      5251,
      5261,
      5300,
      5309,
      5310,
      5311,
      5331,
      5399,
      [5611, 5699],
      [5712, 5732],
      [5940, 5949],
      5970,
      5977,
      5992,
      5995,
      5999,
    ),
  },
  { name: 'online_marketplaces', label: 'Online shopping and mail order', mccs: codes(5262, 5964, 5965, 5969) },
  { name: 'digital_goods', label: 'Digital goods and software', mccs: codes(5733, 5734, 5735, 5815, 5816, 5817, 5818) },
  {
    name: 'telecom_utilities',
    label: 'Telecom and utilities',
    mccs: codes(4812, 4814, 4816, 4821, 4899, 4900),
  },
  {
    name: 'health',
    label: 'Health and pharmacy',
    mccs: codes(5047, 5122, 5912, 8011, 8021, 8031, [8041, 8043], 8049, 8050, 8062, 8071, 8099),
  },
  { name: 'education', label: 'Education', mccs: codes(8211, 8220, 8241, 8244, 8249, 8299, 8351) },
  {
    name: 'entertainment',
    label: 'Entertainment and leisure',
    mccs: codes(7829, 7832, 7841, 7911, 7922, 7929, 7932, 7933, 7941, [7991, 7994], [7996, 7999]),
  },
  {
    name: 'professional_services',
    label: 'Business and professional services',
    mccs: codes(7311, 7333, 7338, 7339, 7342, 7349, 7361, 7372, 7375, 7379, [7392, 7395], 7399, 8111, 8911, 8931, 8999),
  },
  { name: 'charity', label: 'Charities and memberships', mccs: codes(8398, 8641, 8651, 8661, 8699) },
  {
    name: 'government_services',
    label: 'Government services and taxes',
    mccs: codes(9211, 9222, 9223, 9311, 9399, 9402, 9405),
  },
  { name: 'cash_withdrawal', label: 'Cash withdrawals', mccs: codes(6010, 6011) },
  // What the customer-portal spec prohibits (§1); the program blocks these by default.
  { name: 'gambling', label: 'Gambling and betting', mccs: codes(7800, 7801, 7802, 7995, 9406) },
  {
    name: 'money_transfer',
    label: 'Wires, money orders and money transfer',
    mccs: codes(4829, 6051, 6536, 6537, 6538, 6540),
  },
  { name: 'brokers', label: 'Securities brokers', mccs: codes(6211) },
  { name: 'dating_escort', label: 'Dating and escort services', mccs: codes(7273) },
];

export const MERCHANT_CATEGORY_NAMES = MERCHANT_CATEGORIES.map((c) => c.name);

/** The program's blocked categories until a Super-Admin changes them: the uses customer-portal §1 prohibits. */
export const PROHIBITED_CATEGORIES = ['gambling', 'money_transfer', 'brokers', 'dating_escort'];

const BY_MCC = new Map(MERCHANT_CATEGORIES.flatMap((c) => c.mccs.map((m) => [m, c.name] as const)));
const LABELS = new Map(MERCHANT_CATEGORIES.map((c) => [c.name, c.label]));

/** The category of a merchant category code, or null for a code in no group (or none given). */
export function categoryOf(mcc: string | null): string | null {
  return mcc ? (BY_MCC.get(mcc) ?? null) : null;
}

/** What people read for a category name; an unknown name reads as itself. */
export function categoryLabel(name: string): string {
  return LABELS.get(name) ?? name;
}

const REGIONS = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });

/** A country's English name from its ISO 3166-1 alpha-2 code ("GH" → "Ghana"); an unknown code reads as itself. */
export function countryName(code: string): string {
  try {
    return REGIONS.of(code) ?? code;
  } catch {
    return code;
  }
}
