/**
 * The API contract. Request schemas live in the topic files; what the API answers is the zod
 * schemas of ./responses.ts, and each response type here (ApiCard, ApiTopup, …) is their
 * z.infer: a field is added to the schema once and every client sees it.
 */
export * from './roles';
export * from './fields';
export * from './account';
export * from './company-users';
export * from './paging';
export * from './wallet';
export * from './fees';
export * from './cards';
export * from './verification';
export * from './integrations';
export * from './reconciliation';
export * from './notifications';
export * from './statement';
