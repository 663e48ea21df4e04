/**
 * The list requests bench/lists.ts times: every GET list a staff or customer screen uses, page 1,
 * a deep page, each filter and the search. `deep` cases are resolved at run time to page 200, or
 * the last page when the list is shorter.
 */
export interface ListCase {
  /** the screen's list, e.g. 'cards' */
  list: string;
  /** 'page 1', 'deep', 'state=Verified', … */
  name: string;
  path: string;
  who: 'admin' | 'super' | 'individual' | 'company';
  /** page 200 or the last when shorter (true), or the last page */
  deep?: true | 'last';
}

export interface CaseIds {
  individual: string;
  company: string;
  card: string;
  /** a day in the middle of the data's year, and a week after it */
  from: string;
  to: string;
  /** four months of the data's year */
  months: { from: string; to: string };
}

export function listCases(ids: CaseIds): ListCase[] {
  const range = `start_date=${ids.from}&end_date=${ids.to}`;
  const cases: ListCase[] = [];
  const add = (
    list: string,
    path: string,
    who: ListCase['who'],
    filters: Record<string, string>,
    extra: { deep?: true } = { deep: true },
  ) => {
    const sep = path.includes('?') ? '&' : '?';
    cases.push({ list, name: 'page 1', path, who });
    if (extra.deep) cases.push({ list, name: 'deep', path, who, deep: true });
    for (const [name, q] of Object.entries(filters)) cases.push({ list, name, path: `${path}${sep}${q}`, who });
  };
  add('individuals', '/individuals', 'admin', {
    'state=Verified': 'state=Verified',
    'state=In-review': 'state=In-review',
    'state=Deactivated': 'state=Deactivated',
    'date range': range,
    'search "User 1234"': 'name=User%201234',
    'search "kofi"': 'name=kofi',
    'search "Mensah"': 'name=Mensah',
  });
  add('companies', '/companies', 'admin', {
    'state=Verified': 'state=Verified',
    'state=Deactivated': 'state=Deactivated',
    'date range': range,
    'search "Co 123"': 'name=Co%20123',
  });
  add('cards (staff)', '/cards', 'admin', {
    'for=company': 'for=company',
    'for=individual': 'for=individual',
    'purpose=media': 'purpose=media',
    'type=premium': 'type=premium',
    'is_active=true': 'is_active=true',
    'is_active=false': 'is_active=false',
    deleted_only: 'deleted_only=true',
    flagged_only: 'flagged_only=true',
    'company_id=…': `company_id=${ids.company}`,
    'date range': range,
    'search "Card 4321"': 'search=Card%204321',
    'search "kofi"': 'search=kofi',
    'search last4 "0042"': 'search=0042',
  });
  add('cards of a wallet', `/cards/individual/${ids.individual}`, 'individual', { 'search "kofi"': 'search=kofi' }, {});
  add('cards of a wallet', `/cards/company/${ids.company}`, 'admin', { 'is_active=true': 'is_active=true' }, {});
  add('top-ups (staff)', '/wallet/list-topups', 'admin', {
    'state=Pending': 'state=Pending',
    'method=Momo': 'method=Momo',
    'for=company': 'for=company',
    'wallet=…': `wallet=${ids.individual}`,
    'date range': range,
  });
  add('momo top-ups', '/wallet/list-momo-topups', 'admin', { 'state=Pending': 'state=Pending', 'date range': range });
  add('wallet transactions', '/reports/view-wallet-transactions', 'admin', {
    'type=deposit': 'type=deposit',
    'type=transfer': 'type=transfer',
    card_only: 'card_only=true',
    'wallet=…': `wallet=${ids.individual}`,
    'date range': range,
  });
  add('wallet transactions', '/reports/view-wallet-transactions?per_page=10', 'individual', { 'date range': range });
  // The busiest wallet's own history (the individual's wallet holds a tenth of the movements), as its owner asks.
  const own = `/reports/view-wallet-transactions?wallet=${ids.individual}`;
  add('busiest wallet, own', own, 'individual', {
    'page 1000': 'page=1000',
    'four months': `start_date=${ids.months.from}&end_date=${ids.months.to}`,
    'four months, page 1000': `start_date=${ids.months.from}&end_date=${ids.months.to}&page=1000`,
    'type=deposit': 'type=deposit',
    card_only: 'card_only=true',
  });
  cases.push({ list: 'busiest wallet, own', name: 'last page', path: own, who: 'individual', deep: 'last' });
  add('busiest wallet, transfers', `/reports/view-wallet-transfers?wallet=${ids.individual}`, 'individual', {});
  add('wallet transfers', '/reports/view-wallet-transfers', 'admin', {
    'wallet=…': `wallet=${ids.individual}`,
    'date range': range,
  });
  add('wallet transfers', '/reports/view-wallet-transfers?per_page=10', 'company', {});
  add('wallet top-ups', '/reports/view-wallet-topups', 'admin', {
    'state=Approved': 'state=Approved',
    'date range': range,
  });
  add('wallet top-ups', '/reports/view-wallet-topups?per_page=10', 'individual', {});
  add('card transactions', `/reports/view-cards-transactions?card=${ids.card}`, 'admin', { 'date range': range });
  add('KYC verifications', '/verification/get-individuals', 'admin', {
    'state=pending': 'state=pending',
    'search "User 1234"': 'name=User%201234',
    'date range': range,
  });
  add('KYB verifications', '/verification/get-companies', 'admin', {
    'state=pending': 'state=pending',
    'search "Co 123"': 'name=Co%20123',
  });
  add('audit trail', '/audit-logs', 'super', {
    'actor=user12@': 'actor=user12%40',
    'action=card.': 'action=card.',
    'object_type=topup': 'object_type=topup',
    'date range': range,
  });
  add('administrators', '/account/admins', 'super', {}, {});
  add('company users', `/company/users/${ids.company}`, 'company', {}, {});
  add('third parties', '/third-party/clients', 'admin', {});
  add('webhook deliveries', '/third-party/webhook-deliveries', 'admin', {
    'state=failed': 'state=failed',
    'company_id=…': `company_id=${ids.company}`,
  });
  add('fees', '/fees', 'admin', {}, {});
  add('chain deposits', '/wallet/chain-deposits', 'admin', { 'status=Unassigned': 'status=Unassigned' });
  add('disputes', '/disputes', 'admin', {
    'state=submitted': 'state=submitted',
    'reason=fraudulent': 'reason=fraudulent',
    'customer=…': `customer=${ids.company}`,
    'date range': range,
  });
  add('disputes', '/disputes', 'individual', {}, {});
  add('notifications', '/notifications', 'individual', { unread: 'unread=true' });
  return cases;
}
