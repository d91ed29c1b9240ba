import {
  FLEET_EXPORT_MAX,
  ROLES,
  type FleetFilter,
  type FleetPage,
  type FleetQuery,
  type FleetRow,
  type Language,
} from '@flowbox/shared';
import {
  requireCustomerRead,
  requirePermission,
  requireRole,
  requireSiteRead,
  type Actor,
  placeScopeOf,
  unknownTo,
} from '../access/access.ts';
import type { Context } from '../context.ts';
import { csvLine } from '../http/csv.ts';
import { customerExists, customerOfSite, fleetCount, fleetPage, type FleetScope } from './fleet-list.repo.ts';

/** Rows read per query while an export streams: a bounded piece of work each. */
const EXPORT_CHUNK = 1_000;

/** The columns of the export, in the reader's language (docs/fleet.md "CSV"). */
const EXPORT_COLUMNS: Record<Language, string[]> = {
  en: [
    'Serial',
    'Model',
    'Customer',
    'Site',
    'Building',
    'Zone',
    'Connection',
    'Since',
    'Valve',
    'Zone locked',
    'Leaking',
    'Firmware',
    'Last reading',
    'Open alerts',
  ],
  fr: [
    'Numéro de série',
    'Modèle',
    'Client',
    'Site',
    'Bâtiment',
    'Zone',
    'Connexion',
    'Depuis',
    'Vanne',
    'Zone verrouillée',
    'Fuite',
    'Firmware',
    'Dernière mesure',
    'Alertes ouvertes',
  ],
};

/** The words of the export's cells, in the reader's language. */
const WORDS = {
  en: {
    connected: 'Online',
    disconnected: 'Offline',
    never: 'Never connected',
    opened: 'Open',
    closed: 'Closed',
    yes: 'Yes',
    no: 'No',
  },
  fr: {
    connected: 'En ligne',
    disconnected: 'Hors ligne',
    never: 'Jamais connectée',
    opened: 'Ouverte',
    closed: 'Fermée',
    yes: 'Oui',
    no: 'Non',
  },
} as const satisfies Record<Language, Record<string, string>>;

/** The fleet at a glance (issue #18, docs/fleet.md): list and CSV export across the caller's scope. */
export class FleetService {
  constructor(private readonly ctx: Context) {}

  async list(actor: Actor, query: FleetQuery): Promise<FleetPage> {
    const scope = await this.scopeFor(actor, query);
    const { cursor, limit, ...filter } = query;
    const [page, total] = await Promise.all([
      fleetPage(this.ctx.db, scope, filter, cursor, limit),
      cursor ? Promise.resolve(null) : fleetCount(this.ctx.db, scope, filter),
    ]);
    return { items: page.items, next_cursor: page.next, total };
  }

  /**
   * The same filtered, sorted list as CSV, read a chunk at a time as the client takes it, at most
   * FLEET_EXPORT_MAX lines; needs the export permission (`consumption.export`, the one export
   * permission of spec §6). Checks run before the first byte: a refusal is a plain error answer.
   */
  async exportCsv(
    actor: Actor,
    filter: FleetFilter,
    language: Language,
  ): Promise<{ fileName: string; lines: AsyncGenerator<string> }> {
    requirePermission(actor, 'consumption.export');
    const scope = await this.scopeFor(actor, filter);
    const db = this.ctx.db;
    const stamp = this.ctx.now().toISOString().slice(0, 10);
    const text = (key: keyof typeof WORDS.en) => WORDS[language][key];
    async function* lines(): AsyncGenerator<string> {
      yield `\uFEFF${csvLine(EXPORT_COLUMNS[language])}`;
      let cursor: string | undefined;
      let written = 0;
      while (written < FLEET_EXPORT_MAX) {
        const page = await fleetPage(
          db,
          scope,
          filter,
          cursor,
          Math.min(EXPORT_CHUNK, FLEET_EXPORT_MAX - written),
        );
        let chunk = '';
        for (const row of page.items) chunk += csvLine(fields(row, text));
        written += page.items.length;
        if (chunk) yield chunk;
        if (!page.next) return;
        cursor = page.next;
      }
    }
    return { fileName: `fleet-${stamp}.csv`, lines: lines() };
  }

  /** The caller's scope, narrowed to the customer or site the filter names (which it must read). */
  private async scopeFor(actor: Actor, filter: FleetFilter): Promise<FleetScope> {
    requireRole(actor, ROLES.flovea_manager, ROLES.customer_manager, ROLES.site_manager);
    const db = this.ctx.db;
    if (filter.customer_id) {
      if (!(await customerExists(db, filter.customer_id))) throw unknownTo(actor);
      requireCustomerRead(actor, filter.customer_id);
    }
    if (filter.site_id) {
      const customerId = await customerOfSite(db, filter.site_id);
      if (!customerId) throw unknownTo(actor);
      requireSiteRead(actor, customerId, filter.site_id);
    }
    const { customerId, siteIds } = placeScopeOf(actor);
    return { customerId, siteIds };
  }
}

function fields(row: FleetRow, text: (key: keyof typeof WORDS.en) => string): string[] {
  return [
    row.serial,
    row.model ?? '',
    row.customer_name,
    row.site_name,
    row.building_name,
    row.zone_name,
    text(row.connection),
    row.connection_since ?? '',
    row.valve ? text(row.valve) : '',
    text(row.zone_locked ? 'yes' : 'no'),
    text(row.leaking ? 'yes' : 'no'),
    row.firmware_version ?? '',
    row.last_reading_at ?? '',
    String(row.open_alerts),
  ];
}
