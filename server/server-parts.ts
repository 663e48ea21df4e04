/**
 * What the server needs once its database is open, in one module: server.ts imports it while the
 * database opens, so loading these (Fastify, every route, the seeds) overlaps PGlite compiling its
 * WebAssembly on other threads.
 */
export { buildApp } from './app';
export { createContext } from './context-factory';
export { JOBS } from './jobs';
export { startScheduler } from './jobs/runner';
export { startMailWorker } from './jobs/notification-mail';
export { startChainWatcher } from './modules/deposits/watcher';
export { forgetPendingMail } from './modules/notifications/mail';
export { startDispatcher } from './modules/integrations/webhooks';
export { startIssuerWorker } from './modules/cards/outbox';
export { createStaff } from './seed/admin';
export { seedDemoActivity } from './seed/activity';
export { demoAccountsText, isEmpty, seedDemo } from './seed/demo';
