/** Ids are fixed so later demo data (wallets, cards) can refer to them. */
export const DEMO_IDS = {
  superAdmin: '00000000-0000-4000-8000-000000000001',
  admin: '00000000-0000-4000-8000-000000000002',
  /** the second Super-Admin, who approves what the demo's policies hold back (issue 33) */
  superAdmin2: '00000000-0000-4000-8000-0000000000a2',
  individual: '00000000-0000-4000-8000-000000000003',
  companyAdmin: '00000000-0000-4000-8000-000000000004',
  companyUser: '00000000-0000-4000-8000-000000000005',
  momoAgent: '00000000-0000-4000-8000-000000000006',
  company: '00000000-0000-4000-8000-0000000000c1',
} as const;
