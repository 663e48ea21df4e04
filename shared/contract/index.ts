/**
 * The API contract, one file per topic: what each topic's requests take (zod schemas, shared
 * with the forms) and the types of what it answers (ApiCard, ApiTopup, …). Those types are the
 * z.infer of the answer schemas in ./responses/, so a field is added to the schema once and every
 * client sees it. The lists requests and answers share live in ./lists, a leaf.
 */
export * from './roles';
export * from './permissions';
export * from './lists';
export * from './fields';
export * from './account';
export * from './company-users';
export * from './paging';
export * from './wallet';
export * from './fees';
export * from './cards';
export * from './verification';
export * from './customers';
export * from './admins';
export * from './audit';
export * from './integrations';
export * from './reconciliation';
export * from './notifications';
export * from './statement';
export * from './controls';
export * from './approvals';
export * from './monitors';
export * from './statements';
export * from './disputes';
