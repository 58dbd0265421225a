/** Jupiter's getTriggerOrders pages: 10 orders per page, numbered from 1 (trigger-api.md §1.6). */
export const ORDERS_PER_PAGE = 10;

export interface PageWindow {
  readonly limit: number;
  readonly offset: number;
}

/** The rows of page `page` (1-based). */
export function pageWindow(page: number, perPage: number = ORDERS_PER_PAGE): PageWindow {
  return { limit: perPage, offset: (page - 1) * perPage };
}

/**
 * Number of pages for `total` orders. An empty listing still has its page 1 (with no orders), so
 * `page <= totalPages` holds for the default request.
 */
export function totalPages(total: number, perPage: number = ORDERS_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** One page of an already ordered list. */
export function slicePage<T>(items: readonly T[], page: number, perPage: number = ORDERS_PER_PAGE): T[] {
  const { limit, offset } = pageWindow(page, perPage);
  return items.slice(offset, offset + limit);
}
