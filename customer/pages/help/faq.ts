/** The help text's facts (customer-portal §1), as questions a customer asks. */
export const FAQ: Array<{ q: string; a: string }> = [
  {
    q: 'What is Cardwallet?',
    a: 'A master wallet in USDT and prepaid virtual Visa and Mastercard cards made from it, for individuals and companies. Fund the wallet with USDT on the Tron network (TRC20) or by mobile money in Ghana cedis (GHS), then spend it anywhere cards are accepted.',
  },
  {
    q: 'How many accounts may I have?',
    a: 'One individual account per person, plus one company account per incorporated entity.',
  },
  {
    q: 'What is the difference between a basic and a premium card?',
    a: 'A basic card is loaded once at creation, cannot be frozen and cannot be withdrawn to the master wallet; it can be deleted at any time and is best for one-time payments. A premium card takes unlimited top-ups and withdrawals to the main wallet, can be frozen or deleted, and is best for recurring payments.',
  },
  { q: 'Is there a monthly card fee?', a: 'Yes: the monthly card maintenance fee is 2 dollars for Active cards.' },
  { q: 'What is the minimum card top-up?', a: 'The minimum card top-up is 3 dollars.' },
  {
    q: 'How many cards can I create before verification?',
    a: 'Unverified accounts may have at most 5 cards for life. Complete KYC (individuals) or KYB (companies) to create more.',
  },
  {
    q: 'When is a basic card terminated?',
    a: 'Basic cards with a balance under 2 dollars, or with consecutive failed transactions for insufficient balance, are terminated without refund.',
  },
  {
    q: 'Is there a deposit limit? Can I withdraw from the master wallet?',
    a: 'There is no deposit limit on the wallet. Master-wallet deposits cannot be withdrawn externally.',
  },
  {
    q: 'What can I not use my card for?',
    a: 'Prohibited card uses: brokers, dating or escort, casino or betting, wires or money orders, and money-transfer sites.',
  },
  { q: 'How are API fees billed?', a: 'Monthly API fees are billed to companies at the start of each month.' },
  {
    q: 'Can a transfer be reversed?',
    a: 'No. Transfers between master wallets are non-reversible, so check the wallet id before you send.',
  },
  {
    q: 'My verification was rejected. What now?',
    a: 'Rejected verification applicants may reapply with corrected details or documents.',
  },
  {
    q: 'How long do top-ups take?',
    a: 'A Tron (TRC20) deposit should complete within 15 minutes. Mobile money is verified manually between 9am and 11pm GMT and takes up to 30 minutes.',
  },
  {
    q: 'Can my account be disabled?',
    a: 'Yes. Accounts may be disabled by the provider, for example when the terms of use are broken.',
  },
];
