/**
 * Where in the hierarchy an activity log is read (spec §2 events routes). The four levels answer
 * the same page shape, so one fetcher and one screen serve them all.
 */
export type EventsScope =
  | { level: 'customer'; customerId: string }
  | { level: 'site'; customerId: string; siteId: string }
  | { level: 'building'; customerId: string; siteId: string; buildingId: string }
  | { level: 'zone'; customerId: string; siteId: string; buildingId: string; zoneId: string };

export function eventsPath(scope: EventsScope): string {
  const customer = `/customers/${scope.customerId}`;
  switch (scope.level) {
    case 'customer':
      return `${customer}/events`;
    case 'site':
      return `${customer}/sites/${scope.siteId}/events`;
    case 'building':
      return `${customer}/sites/${scope.siteId}/buildings/${scope.buildingId}/events`;
    case 'zone':
      return `${customer}/sites/${scope.siteId}/buildings/${scope.buildingId}/zones/${scope.zoneId}/events`;
  }
}

/** Keys nest under the customer, so any change that invalidates the customer refreshes its logs. */
export function eventsKey(scope: EventsScope): readonly string[] {
  return ['customers', scope.customerId, 'events', eventsPath(scope)];
}
