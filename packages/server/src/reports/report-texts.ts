import { displayDate, type Language, type ReportFrequency } from '@flowbox/shared';
import type { Template } from '../mail/templates.ts';

/*
 * The words of a report's files and of its email, EN and FR (docs/reports.md "Contents"). Numbers
 * are written the reader's way (1,234.5 or 1 234,5), dates as the spec displays them (§3: MM/dd/yyyy
 * in English, dd/MM/yyyy in French).
 */

const LOCALE: Record<Language, string> = { en: 'en-US', fr: 'fr-FR' };

export const REPORT_TEXTS = {
  en: {
    title: 'Water report',
    customer: 'Customer',
    site: 'Site',
    allSites: 'All sites',
    period: 'Period',
    timezone: 'Time zone',
    generated: 'Generated',
    consumption: 'Consumption and cost',
    zoneColumns: ['Site', 'Building', 'Zone', 'Volume', 'Unit', 'Cost', 'Currency'],
    total: 'Total',
    noZones: 'No zone in this scope.',
    notBilled: 'not billed',
    tiers: 'Cost per price tier',
    tierColumns: [
      'Price from',
      'Tier from',
      'Tier to',
      'Price per unit',
      'Volume',
      'Unit',
      'Cost',
      'Currency',
    ],
    tierPdfColumns: ['Price from', 'Tier', 'Price per unit', 'Volume', 'Cost'],
    andMore: 'and more',
    noTiers: 'No billed consumption in this period.',
    alerts: 'Alerts opened',
    alertColumns: ['Category', 'Opened', 'Resolved since'],
    noAlerts: 'No alert opened in this period.',
    closings: 'Closings',
    closingColumns: ['Closing', 'Count'],
    closingNames: {
      valve_closed: 'Valve closed (command or device)',
      automatic_closing_triggered: 'Automatic closing',
      scheduled_closing_started: 'Scheduled closing',
    },
    leaks: 'Continuous flow and night flow',
    leakColumns: [
      'Site',
      'Building',
      'Zone',
      'Continuous-flow days',
      'Night flow (L/h)',
      'Allowance (L/h)',
      'Nights measured',
    ],
    noLeaks: 'No zone has hourly figures in the period.',
    notComputed: 'not computed',
    section: 'Section',
  },
  fr: {
    title: 'Rapport eau',
    customer: 'Client',
    site: 'Site',
    allSites: 'Tous les sites',
    period: 'Période',
    timezone: 'Fuseau horaire',
    generated: 'Généré le',
    consumption: 'Consommation et coût',
    zoneColumns: ['Site', 'Bâtiment', 'Zone', 'Volume', 'Unité', 'Coût', 'Devise'],
    total: 'Total',
    noZones: 'Aucune zone dans ce périmètre.',
    notBilled: 'non facturé',
    tiers: 'Coût par tranche de prix',
    tierColumns: [
      'Prix depuis',
      'Tranche de',
      'Tranche à',
      'Prix unitaire',
      'Volume',
      'Unité',
      'Coût',
      'Devise',
    ],
    tierPdfColumns: ['Prix depuis', 'Tranche', 'Prix unitaire', 'Volume', 'Coût'],
    andMore: 'et plus',
    noTiers: 'Aucune consommation facturée sur la période.',
    alerts: 'Alertes ouvertes',
    alertColumns: ['Catégorie', 'Ouvertes', 'Résolues depuis'],
    noAlerts: 'Aucune alerte ouverte sur la période.',
    closings: 'Fermetures',
    closingColumns: ['Fermeture', 'Nombre'],
    closingNames: {
      valve_closed: 'Vanne fermée (commande ou appareil)',
      automatic_closing_triggered: 'Fermeture automatique',
      scheduled_closing_started: 'Fermeture programmée',
    },
    leaks: 'Écoulement continu et débit de nuit',
    leakColumns: [
      'Site',
      'Bâtiment',
      'Zone',
      'Jours d’écoulement continu',
      'Débit de nuit (L/h)',
      'Tolérance (L/h)',
      'Nuits mesurées',
    ],
    noLeaks: 'Aucune zone n’a de relevés horaires sur la période.',
    notComputed: 'non calculé',
    section: 'Section',
  },
} as const;

export type ReportTexts = (typeof REPORT_TEXTS)[Language];

/** A decimal string ("1234.500") the reader's way, with up to `decimals` decimals. */
export function readerNumber(value: string | number, language: Language, decimals = 3): string {
  return new Intl.NumberFormat(LOCALE[language], { maximumFractionDigits: decimals }).format(Number(value));
}

/** An amount with its currency the reader's way ("€1,234.56", "1 234,56 €"). */
export function readerAmount(
  value: string,
  currency: string,
  language: Language,
  maxDecimals?: number,
): string {
  const options: Intl.NumberFormatOptions = { style: 'currency', currency };
  // A price per unit may have more decimals than the currency's minor unit (0.0035 €/L).
  if (maxDecimals !== undefined) options.maximumFractionDigits = maxDecimals;
  return new Intl.NumberFormat(LOCALE[language], options).format(Number(value));
}

export function readerPeriod(from: string, to: string, language: Language): string {
  return `${displayDate(from, language)} – ${displayDate(to, language)}`;
}

/** The email telling a recipient a report is ready, with the link to the reports page (signed in). */
export function reportReadyEmail(
  language: Language,
  report: {
    firstname: string;
    name: string;
    frequency: ReportFrequency;
    scope: string;
    from: string;
    to: string;
  },
  link: string,
): Template {
  const period = readerPeriod(report.from, report.to, language);
  if (language === 'fr') {
    const kind = report.frequency === 'weekly' ? 'hebdomadaire' : 'mensuel';
    return {
      subject: `Rapport ${kind} « ${report.name} » : ${report.scope}, ${period}`,
      text: `Bonjour ${report.firstname},\n\nLe rapport ${kind} « ${report.name} » de ${report.scope} pour la période du ${period} est prêt. Téléchargez-le (CSV ou PDF) depuis la page des rapports, après connexion :\n\n${link}\n\nVous recevez ce message car un responsable vous a ajouté aux destinataires de ce rapport.\n`,
    };
  }
  const kind = report.frequency === 'weekly' ? 'weekly' : 'monthly';
  return {
    subject: `${kind === 'weekly' ? 'Weekly' : 'Monthly'} report "${report.name}": ${report.scope}, ${period}`,
    text: `Hello ${report.firstname},\n\nThe ${kind} report "${report.name}" of ${report.scope} for ${period} is ready. Download it (CSV or PDF) from the reports page once signed in:\n\n${link}\n\nYou receive this message because a manager added you to this report's recipients.\n`,
  };
}
