import { randomBytes } from 'node:crypto';
import { type IncomingMessage, type Server, type ServerResponse, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { tronAddressFromHex, tronAddressToHex } from '../../server/chain/address';
import { ChainUnavailable } from '../../server/chain/port';
import { createTronGridChain } from '../../server/chain/trongrid';
import type { ChainConfig } from '../../server/config';
import { eq } from 'drizzle-orm';
import { chainDeposits } from '../../server/db/schema';
import { scanDeposits } from '../../server/modules/deposits/watcher';
import { type TestApp, startTestApp } from './support/app';
import { newIndividual } from './support/actors';

/**
 * The TronGrid client against a local server answering in TronGrid's documented shapes: the
 * account's TRC20 transfers (paged by meta.fingerprint), a transaction's events, the head block.
 */
const USDT = 'TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t';
const OTHER_TOKEN = tronAddressFromHex(randomBytes(20).toString('hex'));
const HEAD = 70_000_100;
const newAddress = () => tronAddressFromHex(randomBytes(20).toString('hex'));
const newHash = () => randomBytes(32).toString('hex');
/** Events write addresses as 0x + 20 bytes (sometimes 41 + 20 bytes). */
const hex0x = (a: string) => `0x${tronAddressToHex(a).slice(2)}`;

interface Transfer {
  hash: string;
  from: string;
  to: string;
  value: string;
  block: number;
  time: number;
  logIndex: number;
  token?: string;
}

let server: Server;
let url: string;
let transfers: Transfer[] = [];
/** Transfers per page of the TRC20 listing. */
let pageSize = 200;
let failure: null | 500 | 429 | 'malformed' | 'slow' = null;
let requests: IncomingMessage[] = [];

function trc20Item(t: Transfer) {
  const token = t.token ?? USDT;
  return {
    transaction_id: t.hash,
    token_info: {
      symbol: token === USDT ? 'USDT' : 'XYZ',
      address: token,
      decimals: 6,
      name: token === USDT ? 'Tether USD' : 'Other',
    },
    block_timestamp: t.time,
    from: t.from,
    to: t.to,
    type: 'Transfer',
    value: t.value,
  };
}

function eventOf(t: Transfer, i: number) {
  const address = i % 2 ? (a: string) => tronAddressToHex(a) : hex0x;
  return {
    block_number: t.block,
    block_timestamp: t.time,
    caller_contract_address: t.token ?? USDT,
    contract_address: t.token ?? USDT,
    event_index: t.logIndex,
    event_name: 'Transfer',
    result: {
      0: address(t.from),
      1: address(t.to),
      2: t.value,
      from: address(t.from),
      to: address(t.to),
      value: t.value,
    },
    result_type: { from: 'address', to: 'address', value: 'uint256' },
    event: 'Transfer(address indexed from, address indexed to, uint256 value)',
    transaction_id: t.hash,
  };
}

function answer(req: IncomingMessage, res: ServerResponse) {
  requests.push(req);
  const send = (status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof body === 'string' ? body : JSON.stringify(body));
  };
  if (failure === 'slow')
    return void setTimeout(() => send(200, { block_header: { raw_data: { number: HEAD } } }), 1_000);
  if (failure === 500) return send(500, { Error: 'internal' });
  if (failure === 429) return send(429, { Error: 'rate limit' });
  if (failure === 'malformed') return send(200, '{"data": [ {"transaction_id": ');
  const u = new URL(req.url!, 'http://x');
  const listing = u.pathname.match(/^\/v1\/accounts\/(T\w+)\/transactions\/trc20$/);
  if (req.method === 'GET' && listing) {
    const [, address] = listing;
    const p = u.searchParams;
    const since = Number(p.get('min_timestamp') ?? 0);
    // contract_address filters on TronGrid's side, but the client must not rely on it.
    const all = transfers.filter((t) => t.to === address && t.time >= since).sort((a, b) => a.time - b.time);
    const start = Number(p.get('fingerprint')?.replace('fp-', '') ?? 0);
    const page = all.slice(start, start + pageSize);
    const next = start + pageSize < all.length ? `fp-${start + pageSize}` : undefined;
    return send(200, {
      data: page.map(trc20Item),
      success: true,
      meta: {
        at: Date.now(),
        page_size: page.length,
        ...(next && { fingerprint: next, links: { next: `${url}${req.url}` } }),
      },
    });
  }
  const events = u.pathname.match(/^\/v1\/transactions\/([0-9a-f]{64})\/events$/);
  if (req.method === 'GET' && events) {
    const data = transfers.filter((t) => t.hash.toLowerCase() === events[1]).map(eventOf);
    return send(200, { data, success: true, meta: { at: Date.now(), page_size: data.length } });
  }
  if (req.method === 'POST' && u.pathname === '/wallet/getnowblock') {
    return send(200, {
      blockID: '00',
      block_header: { raw_data: { number: HEAD, timestamp: Date.now() }, witness_signature: '00' },
    });
  }
  send(404, { Error: 'not found' });
}

// Asserted, not annotated, so it compiles whether or not ChainConfig has the watcher's `watch` yet.
const config = (over: Partial<ChainConfig> = {}) =>
  ({
    kind: 'trongrid',
    xpub: '',
    trongridUrl: url,
    trongridApiKey: 'test-api-key',
    usdtContract: USDT,
    minConfirmations: 19,
    pollMs: 10_000,
    timeoutMs: 200,
    watch: false,
    ...over,
  }) as ChainConfig;

beforeAll(async () => {
  server = createServer(answer);
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((ok) => server.close(ok));
});
beforeEach(() => {
  transfers = [];
  requests = [];
  pageSize = 200;
  failure = null;
});

const T0 = Date.UTC(2026, 2, 1);
const transfer = (over: Partial<Transfer> & { to: string }): Transfer => ({
  hash: newHash(),
  from: newAddress(),
  value: '1000000',
  block: HEAD - 5,
  time: T0,
  logIndex: 0,
  ...over,
});

describe('TronGrid chain: transfersTo', () => {
  it('reads a USDT transfer with its amount, parties, block, log index and confirmations', async () => {
    const to = newAddress();
    const t = transfer({ to, value: '123456789', block: HEAD - 18, logIndex: 3, hash: newHash().toUpperCase() });
    transfers.push(t);
    const chain = createTronGridChain(config());
    expect(chain.name).toBe('trongrid');
    const got = await chain.transfersTo(to, new Date(T0 - 1000));
    expect(got).toEqual([
      {
        hash: t.hash.toLowerCase(),
        logIndex: 3,
        from: t.from,
        to,
        amountMicro: 123_456_789,
        blockNumber: HEAD - 18,
        blockTime: new Date(T0),
        confirmations: 19,
      },
    ]);
    const listing = requests.find((r) => r.url!.includes('/transactions/trc20'))!;
    const q = new URL(listing.url!, url).searchParams;
    expect(Object.fromEntries(q)).toMatchObject({
      only_to: 'true',
      contract_address: USDT,
      min_timestamp: String(T0 - 1000),
      order_by: 'block_timestamp,asc',
      limit: '200',
    });
  });

  it('sends the API key on every request, and none when there is no key', async () => {
    const to = newAddress();
    transfers.push(transfer({ to }));
    await createTronGridChain(config()).transfersTo(to, new Date(0));
    expect(requests.map((r) => r.headers['tron-pro-api-key'])).toEqual([
      'test-api-key',
      'test-api-key',
      'test-api-key',
    ]);
    requests = [];
    await createTronGridChain(config({ trongridApiKey: undefined })).transfersTo(to, new Date(0));
    expect(requests.length).toBe(3);
    expect(requests.every((r) => r.headers['tron-pro-api-key'] === undefined)).toBe(true);
  });

  it('follows the fingerprint over every page, oldest first', async () => {
    const to = newAddress();
    for (let i = 0; i < 7; i++)
      transfers.push(transfer({ to, time: T0 + i * 3000, block: HEAD - 20 + i, value: String((i + 1) * 1_000_000) }));
    pageSize = 3;
    const got = await createTronGridChain(config()).transfersTo(to, new Date(T0));
    expect(got.map((t) => t.amountMicro)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => n * 1_000_000));
    expect(got.map((t) => t.confirmations)).toEqual([21, 20, 19, 18, 17, 16, 15]);
    const fingerprints = requests
      .filter((r) => r.url!.includes('/transactions/trc20'))
      .map((r) => new URL(r.url!, url).searchParams.get('fingerprint'));
    expect(fingerprints).toEqual([null, 'fp-3', 'fp-6']);
  });

  it('ignores other tokens, and tells apart two transfers of one transaction by their events', async () => {
    const to = newAddress();
    const hash = newHash();
    transfers.push(
      transfer({ to, token: OTHER_TOKEN, value: '5000000' }),
      transfer({ to, hash, value: '2500000', logIndex: 1 }),
      transfer({ to, hash, value: '2500000', logIndex: 4 }),
    );
    const got = await createTronGridChain(config()).transfersTo(to, new Date(0));
    expect(got.map((t) => [t.hash, t.logIndex, t.amountMicro])).toEqual([
      [hash, 1, 2_500_000],
      [hash, 4, 2_500_000],
    ]);
    // One events read for the shared transaction, none for the other token's.
    expect(requests.filter((r) => r.url!.includes('/events')).length).toBe(1);
  });

  it('reads nothing (and asks for no head) when nothing came in', async () => {
    expect(await createTronGridChain(config()).transfersTo(newAddress(), new Date(0))).toEqual([]);
    expect(requests.map((r) => r.url!.split('?')[0].split('/').pop())).toEqual(['trc20']);
  });

  it('refuses an amount beyond a safe integer rather than rounding it', async () => {
    const to = newAddress();
    transfers.push(transfer({ to, value: '9007199254740993' }));
    await expect(createTronGridChain(config()).transfersTo(to, new Date(0))).rejects.toBeInstanceOf(ChainUnavailable);
  });
});

describe('TronGrid chain: transaction', () => {
  it('reads a known transaction and knows none for an unknown hash', async () => {
    const to = newAddress();
    const t = transfer({ to, value: '42', block: HEAD, logIndex: 2 });
    transfers.push(t, transfer({ to: newAddress(), hash: t.hash, token: OTHER_TOKEN, logIndex: 0 }));
    const chain = createTronGridChain(config());
    expect(await chain.transaction(t.hash.toUpperCase())).toEqual([
      {
        hash: t.hash,
        logIndex: 2,
        from: t.from,
        to,
        amountMicro: 42,
        blockNumber: HEAD,
        blockTime: new Date(T0),
        confirmations: 1,
      },
    ]);
    expect(await chain.transaction(newHash())).toBeNull();
    expect(await chain.transaction('not-a-hash')).toBeNull();
  });
});

describe('TronGrid chain: an API that fails', () => {
  // Thunks, so each call starts only once its rejection is awaited.
  const calls = (chain: ReturnType<typeof createTronGridChain>) => [
    () => chain.transfersTo(newAddress(), new Date(0)),
    () => chain.transaction(newHash()),
  ];

  for (const kind of [500, 429, 'malformed'] as const) {
    it(`throws ChainUnavailable on ${kind === 'malformed' ? 'a malformed body' : `HTTP ${kind}`}`, async () => {
      failure = kind;
      for (const call of calls(createTronGridChain(config())))
        await expect(call()).rejects.toBeInstanceOf(ChainUnavailable);
    });
  }

  it('throws ChainUnavailable on a well-formed JSON body of the wrong shape', async () => {
    const chain = createTronGridChain(config(), {
      fetch: async () => new Response(JSON.stringify({ data: [{ transaction_id: 'x' }] }), { status: 200 }),
    });
    for (const call of calls(chain)) await expect(call()).rejects.toBeInstanceOf(ChainUnavailable);
  });

  it('throws ChainUnavailable when nothing answers', async () => {
    const chain = createTronGridChain(config({ trongridUrl: 'http://127.0.0.1:1' }));
    for (const call of calls(chain)) await expect(call()).rejects.toBeInstanceOf(ChainUnavailable);
  });

  it('throws ChainUnavailable when the answer comes later than the timeout', async () => {
    failure = 'slow';
    const started = Date.now();
    for (const call of calls(createTronGridChain(config({ timeoutMs: 200 }))))
      await expect(call()).rejects.toBeInstanceOf(ChainUnavailable);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});

describe('the deposit watcher on TronGrid', () => {
  // The public BIP39 test phrase's account key ("abandon … about"): any xpub will do here.
  const XPUB =
    'xpub6D1AabNHCupeiLM65ZR9UStMhJ1vCpyV4XbZdyhMZBiJXALQtmn9p42VTQckoHVn8WNqS7dqnJokZHAHcHGoaQgmv8D45oNUKx6DZMNZBCd';
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp({ chain: config({ xpub: XPUB, trongridApiKey: undefined }) });
  });
  afterAll(() => app.close());

  it('credits nothing while the API fails or hangs, retries on the next pass, and credits the deposit once', async () => {
    const a = await newIndividual(app);
    const to = (await app.api('GET', `/wallet/deposit-address/${a.id}`, { token: a.token })).body.data
      .address as string;
    const hash = newHash();
    transfers.push(transfer({ to, hash, value: '25000000', block: HEAD - 30, time: Date.now() - 60_000 }));
    const balance = async () => (await app.api('GET', `/wallet/account-balance/${a.id}`, { token: a.token })).body.data;
    for (const mode of [500, 'slow'] as const) {
      failure = mode;
      expect((await scanDeposits(app.ctx)).unavailable).toBeGreaterThan(0);
      expect(await balance()).toBe('0.00');
    }
    failure = null;
    expect((await scanDeposits(app.ctx)).credited).toBe(1);
    await scanDeposits(app.ctx);
    expect(await balance()).toBe('24.87'); // 25.00 less the 0.5% Tron fee (0.125, rounded up)
    const [row] = await app.ctx.db.select().from(chainDeposits).where(eq(chainDeposits.hash, hash));
    expect(row).toMatchObject({ status: 'Credited', walletId: a.id, blockNumber: HEAD - 30, amountMicro: 25_000_000 });
  });
});
