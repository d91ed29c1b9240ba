import type { Crumb } from '../../components/PageHeader.tsx';
import type { SiteOption } from './components/ManagerForm.tsx';
import type { ManagerFamily } from './family.ts';

/** Where a family's pages sit, read from the route: the family, the trail to its list, its links. */
export type ManagerFamilyPlace = {
  family: ManagerFamily;
  /** The list page's breadcrumbs; the other pages add the list itself. */
  crumbs: Crumb[];
  /** Site managers are listed by site. */
  siteId?: string;
  listHref: string;
  addHref: string;
  editHref: (managerId: string) => string;
  permissionsHref: (managerId: string) => string;
  /** End users and plumbers: the links between their two lists, shown above each. */
  tabs?: { label: string; href: string; current: boolean }[];
};

export type SiteChoice = { loading: boolean; options: SiteOption[] };
/** The same shape for an end user's zones (each named with its site and building). */
export type ZoneChoice = SiteChoice;

/**
 * What tells the three manager families' pages apart (spec §7). The feature that owns a family's
 * parent (customers, sites) describes it, so that the managers feature needs neither.
 */
export type ManagerFamilyPages = {
  /** Also the prefix of the family's texts (`site_managers.title`). */
  name: 'flovea_managers' | 'customer_managers' | 'site_managers' | 'end_users' | 'plumber_users';
  usePlace: () => ManagerFamilyPlace;
  /** Site managers look after some of the customer's sites, chosen on the add and edit forms. */
  useSiteChoice?: () => SiteChoice;
  /** End users live in some of the customer's zones, chosen on the add and edit forms. */
  useZoneChoice?: () => ZoneChoice;
};
