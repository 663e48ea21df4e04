/**
 * What the API answers, as zod schemas, one file per topic: the OpenAPI document's response
 * schemas, and (in tests) the check that every real answer matches them. The server reaches them
 * as `@shared/contract/responses`; the apps only take their types (ApiCard, …) from the topic
 * files of the contract, so no answer schema is bundled into the apps.
 *
 * Conventions:
 * - Objects are strict: a field the server sends but the schema does not name fails the check
 *   in tests, so the documentation cannot fall behind the answers. Free-form data (fee
 *   breakdowns, webhook payloads, audit details) is a record of unknown values, on purpose.
 * - No transforms or defaults: the schemas describe the answer exactly as it is sent.
 * - Entities carry an id (`.meta({ id })`) and become components of the OpenAPI document.
 */
export * from './blocks';
export * from './account';
export * from './company-users';
export * from './admins';
export * from './roles';
export * from './audit';
export * from './customers';
export * from './wallet';
export * from './fees';
export * from './cards';
export * from './verification';
export * from './integrations';
export * from './statistics';
export * from './health';
export * from './reconciliation';
export * from './notifications';
export * from './controls';
export * from './approvals';
export * from './monitors';
export * from './statements';
export * from './disputes';
