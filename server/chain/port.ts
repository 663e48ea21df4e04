/**
 * How the platform reads the Tron chain: the USDT (TRC20) transfers into an address, and the ones
 * in a transaction. The built-in sandbox implements it completely; TronGrid reads the real chain.
 */

export const NETWORK_NAME = 'Tron USDT (TRC20)';
/** USDT on Tron has 6 decimals; the platform counts cents, so 10,000 millionths make a cent. */
export const MICRO_PER_CENT = 10_000;

export interface ChainTransfer {
  /** the transaction id: 64 lowercase hexadecimal characters */
  hash: string;
  /** which USDT Transfer event of the transaction this is (one transaction may pay several addresses) */
  logIndex: number;
  from: string;
  to: string;
  /** in millionths of a USDT */
  amountMicro: number;
  blockNumber: number;
  blockTime: Date;
  /** blocks on top of its own, itself included: 1 as soon as it is in a block */
  confirmations: number;
}

/** The chain could not be read (down, slow, refused): nothing is concluded, the watcher asks again later. */
export class ChainUnavailable extends Error {}

export interface ChainPort {
  readonly name: 'sandbox' | 'trongrid';
  /** USDT transfers into `address` from `since` on, every page of them, oldest first. */
  transfersTo(address: string, since: Date): Promise<ChainTransfer[]>;
  /** The USDT transfers in one transaction; null when the chain knows no such transaction. */
  transaction(hash: string): Promise<ChainTransfer[] | null>;
}

export const centsOf = (micro: number) => Math.floor(micro / MICRO_PER_CENT);
