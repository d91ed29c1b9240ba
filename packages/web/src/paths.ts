/** Every route of the app, listed once: `path` is the router pattern, `getHref` builds a link. */
export const paths = {
  home: { path: '/', getHref: () => '/' },

  login: {
    path: '/login',
    getHref: (redirect?: string) =>
      redirect && redirect !== '/' ? `/login?redirect=${encodeURIComponent(redirect)}` : '/login',
  },
  register: { path: '/register', getHref: () => '/register' },
  registerConfirm: { path: '/register/confirm', getHref: () => '/register/confirm' },
  resetPasswordRequest: { path: '/reset-password-request', getHref: () => '/reset-password-request' },
  resetPassword: { path: '/reset-password', getHref: () => '/reset-password' },
  setPassword: { path: '/set-password', getHref: () => '/set-password' },

  terms: { path: '/terms', getHref: () => '/terms' },
  privacy: { path: '/privacy', getHref: () => '/privacy' },
  status: { path: '/status', getHref: () => '/status' },
  help: { path: '/help', getHref: () => '/help' },

  profile: { path: '/profile', getHref: () => '/profile' },
  /** An end user's own zone, phone first (issue 18); a manager is sent to the zone's full page. */
  myZone: { path: '/my/zones/:zoneId', getHref: (zoneId: string) => `/my/zones/${zoneId}` },
  /** The resident's alerts of its zone, now and past (issue 33). */
  myZoneAlerts: {
    path: '/my/zones/:zoneId/alerts',
    getHref: (zoneId: string) => `/my/zones/${zoneId}/alerts`,
  },
  profileEdit: { path: '/profile/edit', getHref: () => '/profile/edit' },
  profileUpdatePassword: { path: '/profile/update-password', getHref: () => '/profile/update-password' },

  customers: { path: '/customers', getHref: () => '/customers' },
  customerAdd: { path: '/customers/add', getHref: () => '/customers/add' },
  registrations: {
    path: '/customers/:customerId/registrations',
    getHref: (customerId: string) => `/customers/${customerId}/registrations`,
  },
  customer: { path: '/customers/:customerId', getHref: (customerId: string) => `/customers/${customerId}` },
  customerEdit: {
    path: '/customers/:customerId/edit',
    getHref: (customerId: string) => `/customers/${customerId}/edit`,
  },
  customerEvents: {
    path: '/customers/:customerId/events',
    getHref: (customerId: string) => `/customers/${customerId}/events`,
  },
  customerWebhooks: {
    path: '/customers/:customerId/webhooks',
    getHref: (customerId: string) => `/customers/${customerId}/webhooks`,
  },

  customerManagers: {
    path: '/customers/:customerId/customer-managers',
    getHref: (customerId: string) => `/customers/${customerId}/customer-managers`,
  },
  customerManagerAdd: {
    path: '/customers/:customerId/customer-managers/add',
    getHref: (customerId: string) => `/customers/${customerId}/customer-managers/add`,
  },
  customerManagerEdit: {
    path: '/customers/:customerId/customer-managers/:managerId/edit',
    getHref: (customerId: string, managerId: string) =>
      `/customers/${customerId}/customer-managers/${managerId}/edit`,
  },
  customerManagerPermissions: {
    path: '/customers/:customerId/customer-managers/:managerId/permissions',
    getHref: (customerId: string, managerId: string) =>
      `/customers/${customerId}/customer-managers/${managerId}/permissions`,
  },

  // docs/permissions.md "End users and plumbers": the people of a customer's zones and sites.
  endUsers: {
    path: '/customers/:customerId/end-users',
    getHref: (customerId: string) => `/customers/${customerId}/end-users`,
  },
  endUserAdd: {
    path: '/customers/:customerId/end-users/add',
    getHref: (customerId: string) => `/customers/${customerId}/end-users/add`,
  },
  endUserEdit: {
    path: '/customers/:customerId/end-users/:managerId/edit',
    getHref: (customerId: string, userId: string) => `/customers/${customerId}/end-users/${userId}/edit`,
  },
  endUserPermissions: {
    path: '/customers/:customerId/end-users/:managerId/permissions',
    getHref: (customerId: string, userId: string) =>
      `/customers/${customerId}/end-users/${userId}/permissions`,
  },
  plumberUsers: {
    path: '/customers/:customerId/plumber-users',
    getHref: (customerId: string) => `/customers/${customerId}/plumber-users`,
  },
  plumberUserAdd: {
    path: '/customers/:customerId/plumber-users/add',
    getHref: (customerId: string) => `/customers/${customerId}/plumber-users/add`,
  },
  plumberUserEdit: {
    path: '/customers/:customerId/plumber-users/:managerId/edit',
    getHref: (customerId: string, userId: string) => `/customers/${customerId}/plumber-users/${userId}/edit`,
  },
  plumberUserPermissions: {
    path: '/customers/:customerId/plumber-users/:managerId/permissions',
    getHref: (customerId: string, userId: string) =>
      `/customers/${customerId}/plumber-users/${userId}/permissions`,
  },

  sites: {
    path: '/customers/:customerId/sites',
    getHref: (customerId: string) => `/customers/${customerId}/sites`,
  },
  siteAdd: {
    path: '/customers/:customerId/sites/add',
    getHref: (customerId: string) => `/customers/${customerId}/sites/add`,
  },
  site: {
    path: '/customers/:customerId/sites/:siteId',
    getHref: (customerId: string, siteId: string) => `/customers/${customerId}/sites/${siteId}`,
  },
  siteEdit: {
    path: '/customers/:customerId/sites/:siteId/edit',
    getHref: (customerId: string, siteId: string) => `/customers/${customerId}/sites/${siteId}/edit`,
  },
  siteEvents: {
    path: '/customers/:customerId/sites/:siteId/events',
    getHref: (customerId: string, siteId: string) => `/customers/${customerId}/sites/${siteId}/events`,
  },
  /** docs/reports.md: a customer's reports (over all its sites) and a site's. */
  customerReports: {
    path: '/customers/:customerId/reports',
    getHref: (customerId: string) => `/customers/${customerId}/reports`,
  },
  siteReports: {
    path: '/customers/:customerId/sites/:siteId/reports',
    getHref: (customerId: string, siteId: string) => `/customers/${customerId}/sites/${siteId}/reports`,
  },

  siteManagers: {
    path: '/customers/:customerId/sites/:siteId/site-managers',
    getHref: (customerId: string, siteId: string) => `/customers/${customerId}/sites/${siteId}/site-managers`,
  },
  siteManagerAdd: {
    path: '/customers/:customerId/sites/:siteId/site-managers/add',
    getHref: (customerId: string, siteId: string) =>
      `/customers/${customerId}/sites/${siteId}/site-managers/add`,
  },
  siteManagerEdit: {
    path: '/customers/:customerId/sites/:siteId/site-managers/:managerId/edit',
    getHref: (customerId: string, siteId: string, managerId: string) =>
      `/customers/${customerId}/sites/${siteId}/site-managers/${managerId}/edit`,
  },
  siteManagerPermissions: {
    path: '/customers/:customerId/sites/:siteId/site-managers/:managerId/permissions',
    getHref: (customerId: string, siteId: string, managerId: string) =>
      `/customers/${customerId}/sites/${siteId}/site-managers/${managerId}/permissions`,
  },

  buildingAdd: {
    path: '/customers/:customerId/sites/:siteId/building/add',
    getHref: (customerId: string, siteId: string) => `/customers/${customerId}/sites/${siteId}/building/add`,
  },
  building: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId',
    getHref: (customerId: string, siteId: string, buildingId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}`,
  },
  buildingEdit: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/edit',
    getHref: (customerId: string, siteId: string, buildingId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/edit`,
  },
  buildingEvents: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/events',
    getHref: (customerId: string, siteId: string, buildingId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/events`,
  },

  zoneAdd: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/add',
    getHref: (customerId: string, siteId: string, buildingId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/add`,
  },
  zone: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}`,
  },
  zoneEdit: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/edit',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/edit`,
  },
  zoneEvents: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/events',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/events`,
  },
  flowbox: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/flowbox/:flowboxId',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string, flowboxId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/flowbox/${flowboxId}`,
  },
  waterPoints: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/water-points',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/water-points`,
  },
  scheduleAdd: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/schedules/add',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/schedules/add`,
  },
  scheduleEdit: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/schedules/:scheduleId/edit',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string, scheduleId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/schedules/${scheduleId}/edit`,
  },
  waterPointAdd: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/water-points/add',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/water-points/add`,
  },

  assistant: { path: '/assistant', getHref: () => '/assistant' },

  floveaManagers: { path: '/flovea-managers', getHref: () => '/flovea-managers' },
  floveaManagerAdd: { path: '/flovea-managers/add', getHref: () => '/flovea-managers/add' },
  floveaManagerEdit: {
    path: '/flovea-managers/:managerId/edit',
    getHref: (managerId: string) => `/flovea-managers/${managerId}/edit`,
  },
  floveaManagerPermissions: {
    path: '/flovea-managers/:managerId/permissions',
    getHref: (managerId: string) => `/flovea-managers/${managerId}/permissions`,
  },

  outbox: { path: '/outbox', getHref: () => '/outbox' },
  notifications: { path: '/notifications', getHref: () => '/notifications' },
  settings: { path: '/settings', getHref: () => '/settings' },
  users: { path: '/users', getHref: () => '/users' },
  /** Former addresses of the two above (issue 18): they redirect, query kept; links go to the new ones. */
  alerts: { path: '/alerts', getHref: () => '/notifications' },
  alertSettings: { path: '/alerts/settings', getHref: () => '/settings' },

  fleet: {
    path: '/fleet',
    getHref: (filters: Record<string, string> = {}) => {
      const query = new URLSearchParams(filters).toString();
      return query ? `/fleet?${query}` : '/fleet';
    },
  },
  plumbers: { path: '/plumbers', getHref: () => '/plumbers' },
  plumberAdd: { path: '/plumbers/add', getHref: () => '/plumbers/add' },
  plumberEdit: { path: '/plumbers/:plumberId/edit', getHref: (id: string) => `/plumbers/${id}/edit` },
  plumbersMap: { path: '/plumbers/map', getHref: () => '/plumbers/map' },
  sitesMap: { path: '/map', getHref: () => '/map' },

  firmware: { path: '/firmware', getHref: () => '/firmware' },
  firmwareRollouts: { path: '/firmware/rollouts', getHref: () => '/firmware/rollouts' },
  firmwareRolloutAdd: {
    path: '/firmware/rollouts/add',
    getHref: (imageId: string) => `/firmware/rollouts/add?image_id=${encodeURIComponent(imageId)}`,
  },
  firmwareRollout: {
    path: '/firmware/rollouts/:rolloutId',
    getHref: (rolloutId: string) => `/firmware/rollouts/${rolloutId}`,
  },

  subscriptions: { path: '/subscriptions', getHref: () => '/subscriptions' },
  pricingPlans: { path: '/subscriptions/pricing-plans', getHref: () => '/subscriptions/pricing-plans' },
  pricingPlanAdd: {
    path: '/subscriptions/pricing-plans/add',
    getHref: () => '/subscriptions/pricing-plans/add',
  },
  pricingPlanEdit: {
    path: '/subscriptions/pricing-plans/:pricingPlanId/edit',
    getHref: (planId: string) => `/subscriptions/pricing-plans/${planId}/edit`,
  },
  zoneSubscription: {
    path: '/customers/:customerId/sites/:siteId/building/:buildingId/zone/:zoneId/subscription',
    getHref: (customerId: string, siteId: string, buildingId: string, zoneId: string) =>
      `/customers/${customerId}/sites/${siteId}/building/${buildingId}/zone/${zoneId}/subscription`,
  },
} as const;

/** Only same-site paths are followed after login, never another origin. */
export function safeRedirect(target: string | null): string {
  return target && target.startsWith('/') && !target.startsWith('//') ? target : paths.home.getHref();
}
