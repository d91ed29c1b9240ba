/** A customer's reports (siteId null: over all its sites) or a site's (docs/reports.md). */
export type ReportsScope = { customerId: string; siteId: string | null };

export const scopePath = (scope: ReportsScope) =>
  scope.siteId === null
    ? `/customers/${scope.customerId}`
    : `/customers/${scope.customerId}/sites/${scope.siteId}`;

/** Every report query of a scope starts with this key: a change refreshes them all. */
export const reportsKey = (scope: ReportsScope) => ['reports', scope.customerId, scope.siteId ?? ''] as const;
