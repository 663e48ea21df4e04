import type { BaseRecord, CrudFilter, CrudSort, DataProvider } from '@refinedev/core';
import type { Paged } from '../contract';
import { API_BASE, type Query, api, apiData } from './client';

/**
 * Refine's data provider over the paged API. A resource's API path is its `meta.path`
 * (else its name); Refine's pagination maps to page/per_page, filters to query parameters
 * named by their field, sorters to sort/order.
 */

export function filtersToQuery(filters: CrudFilter[] = []): Query {
  const q: Query = {};
  for (const f of filters) {
    if (!('field' in f)) continue;
    const v = f.value;
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    if (f.operator === 'between' && Array.isArray(v)) {
      q[`start_${f.field}`] = String(v[0]);
      q[`end_${f.field}`] = String(v[1]);
    } else if (Array.isArray(v)) q[f.field] = v.map(String);
    else q[f.field] = typeof v === 'object' && 'toISOString' in v ? (v as Date).toISOString() : (v as string);
  }
  return q;
}

function sortersToQuery(sorters: CrudSort[] = []): Query {
  const s = sorters[0];
  return s ? { sort: s.field, order: s.order } : {};
}

const pathOf = (resource: string, meta?: Record<string, unknown>) =>
  `/${String(meta?.path ?? resource).replace(/^\//, '')}`;

export const dataProvider: DataProvider = {
  getApiUrl: () => API_BASE,

  async getList({ resource, pagination, filters, sorters, meta }) {
    const paging =
      pagination?.mode === 'off' ? {} : { page: pagination?.currentPage ?? 1, per_page: pagination?.pageSize ?? 25 };
    const res = await api<
      | (Paged<BaseRecord> & { totals?: Record<string, string> })
      | { data: BaseRecord[]; company?: Record<string, string> }
    >('GET', pathOf(resource, meta), {
      query: { ...paging, ...filtersToQuery(filters), ...sortersToQuery(sorters), ...(meta?.query as Query) },
    });
    const data = res.data as never[];
    // Lists with a totals line (sums over the whole filtered set) keep them for the screen, and a
    // list of one company's rows the company it is for.
    const totals = 'totals' in res ? res.totals : undefined;
    const company = 'company' in res ? res.company : undefined;
    return {
      data,
      total: 'total' in res ? res.total : data.length,
      ...(totals ? { totals } : {}),
      ...(company ? { company } : {}),
    };
  },

  async getOne({ resource, id, meta }) {
    const data = await apiData<never>('GET', `${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`);
    return { data };
  },

  async create({ resource, variables, meta }) {
    const data = await apiData<never>('POST', pathOf(resource, meta), {
      body: variables,
      idempotencyKey: meta?.idempotencyKey as string | undefined,
    });
    return { data };
  },

  async update({ resource, id, variables, meta }) {
    const method = (meta?.method as string | undefined)?.toUpperCase() ?? 'PUT';
    const data = await apiData<never>(method, `${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`, {
      body: variables,
      idempotencyKey: meta?.idempotencyKey as string | undefined,
    });
    return { data };
  },

  async deleteOne({ resource, id, meta }) {
    const data = await apiData<never>('DELETE', `${pathOf(resource, meta)}/${encodeURIComponent(String(id))}`, {
      idempotencyKey: meta?.idempotencyKey as string | undefined,
    });
    return { data };
  },

  async custom({ url, method, filters, sorters, payload, query, meta }) {
    const path = url.startsWith(API_BASE) ? url.slice(API_BASE.length) : url;
    const res = await api<never>(method.toUpperCase(), path, {
      body: payload,
      query: { ...filtersToQuery(filters), ...sortersToQuery(sorters), ...(query as Query) },
      idempotencyKey: meta?.idempotencyKey as string | undefined,
    });
    return res;
  },
};
