import type { ChainConfig } from '../config';
import type { ChainPort } from './port';

/** TronGrid's HTTP API for the real chain (being written: see issue 15). */
export function createTronGridChain(_config: ChainConfig, _opts: { fetch?: typeof fetch } = {}): ChainPort {
  throw new Error('CHAIN=trongrid is not available yet');
}
