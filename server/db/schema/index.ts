export * from './identity';
export * from './platform';
export * from './ledger';
export * from './wallet';
export * from './cards';
export * from './sandbox';
export * from './verification';
export * from './integrations';
