/** Validation of the list endpoint's query string, with an error naming the parameter. */
import { SORT_ORDERS, type SortOrder } from '../core/shared/catalogue'
import type { ListQuery } from './catalogue'

export class QueryError extends Error {
  constructor(
    readonly parameter: string,
    message: string,
  ) {
    super(message)
  }
}

const INTEGER = /^-?\d+$/

/** Reads one parameter; a parameter given twice is an error rather than a guess. */
function single(params: URLSearchParams, name: string): string | undefined {
  const values = params.getAll(name)
  if (values.length > 1) throw new QueryError(name, `${name} must be given at most once`)
  return values[0]
}

function flag(params: URLSearchParams, name: string, allowBlank: boolean): 0 | 1 | undefined {
  const value = single(params, name)
  if (value === undefined || (allowBlank && value === '')) return undefined
  if (value === '0') return 0
  if (value === '1') return 1
  throw new QueryError(name, `${name} must be 0 or 1`)
}

export function parseListQuery(params: URLSearchParams): ListQuery {
  const page = single(params, 'page')
  const perPage = single(params, 'per_page')
  const sort = single(params, 'sort')
  const q = single(params, 'q')
  if (page !== undefined && (!INTEGER.test(page) || Number(page) < 1)) {
    throw new QueryError('page', 'page must be an integer of at least 1')
  }
  if (perPage !== undefined && (!INTEGER.test(perPage) || Number(perPage) < 10 || Number(perPage) > 50)) {
    throw new QueryError('per_page', 'per_page must be an integer from 10 to 50')
  }
  if (sort !== undefined && !(SORT_ORDERS as readonly string[]).includes(sort)) {
    throw new QueryError('sort', `sort must be one of ${SORT_ORDERS.join(', ')}`)
  }
  const isPodcaster = flag(params, 'is_podcaster', true)
  const reverse = flag(params, 'sort_r', false) === 1
  const includeBlank = flag(params, 'include_blank', false) === 1
  return {
    page: page === undefined ? 1 : Number(page),
    perPage: perPage === undefined ? 25 : Number(perPage),
    // A blank or all-space q is no search at all, so the sort still applies.
    q: q !== undefined && q.trim() !== '' ? q : undefined,
    isPodcaster,
    sort: (sort ?? 'trending') as SortOrder,
    reverse,
    includeBlank,
  }
}
