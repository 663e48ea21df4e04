/**
 * Merchant categories by MCC. A stand-in until the controls work (issue 32) brings the full list:
 * only what the card transactions need, the category name of an MCC.
 */
export function categoryOf(_mcc: string): string | null {
  return null;
}
