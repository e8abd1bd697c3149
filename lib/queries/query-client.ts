import {
  QueryClient,
  type InvalidateOptions,
  type InvalidateQueryFilters,
  type QueryFilters,
  type QueryKey,
} from "@tanstack/react-query";

/**
 * The dashboard's QueryClient: an invalidation after a write always fetches anew.
 *
 * TanStack Query's invalidation cancels a fetch in flight only when the query already has data; a
 * first fetch still in flight is reused. A panel opened and written to at once (a token created
 * the moment its list opens) then showed that first fetch's answer, read before the write: the
 * new row never appeared. Here such a fetch is cancelled (reverting the query to no data) before
 * the invalidation, which then starts one that reads after the write.
 */
export class DashboardQueryClient extends QueryClient {
  override async invalidateQueries<TTaggedQueryKey extends QueryKey = QueryKey>(
    filters?: InvalidateQueryFilters<TTaggedQueryKey>,
    options?: InvalidateOptions,
  ): Promise<void> {
    const firstFetches = {
      ...filters,
      predicate: (query) =>
        query.state.data === undefined &&
        query.state.fetchStatus === "fetching" &&
        (filters?.predicate?.(query) ?? true),
    } satisfies QueryFilters<TTaggedQueryKey>;
    await this.cancelQueries(firstFetches);
    return super.invalidateQueries(filters, options);
  }
}
