import {
  ALERT_CATEGORIES,
  CRITICAL_ALERT_CATEGORIES,
  DEFAULT_PREMIUM_ONLY,
  type AlertCategory,
  type AlertCategorySetting,
  type Language,
} from '@flowbox/shared';
import type { Db } from '../db/client.ts';
import {
  findCategorySettingRow,
  listCategorySettingRows,
  upsertCategorySetting,
  type CategorySettingRow,
} from './alert-settings.repo.ts';

/** The name of each category in emails and subjects, EN and FR. */
export const CATEGORY_NAMES: Record<Language, Record<AlertCategory, string>> = {
  en: {
    water_temperature: 'Water temperature',
    flowbox_internal_status: 'Flowbox internal status',
    abnormal_water_consumption_no_ac: 'Abnormal water consumption',
    abnormal_water_consumption_with_ac: 'Abnormal water consumption: water closed automatically',
    flowbox_dysfunction: 'Flowbox dysfunction',
    flowbox_communication: 'Flowbox communication lost',
    maintenance: 'Maintenance',
    leakage_detection: 'Leak detected',
  },
  fr: {
    water_temperature: "Température de l'eau",
    flowbox_internal_status: 'État interne du flowbox',
    abnormal_water_consumption_no_ac: "Consommation d'eau anormale",
    abnormal_water_consumption_with_ac: "Consommation d'eau anormale : eau coupée automatiquement",
    flowbox_dysfunction: 'Dysfonctionnement du flowbox',
    flowbox_communication: 'Communication avec le flowbox perdue',
    maintenance: 'Maintenance',
    leakage_detection: 'Fuite détectée',
  },
};

/** spec §3: enabled, email flag true, premium-only for the categories of DEFAULT_PREMIUM_ONLY. */
export function defaultCategorySetting(category: AlertCategory): AlertCategorySetting {
  return {
    category,
    subject: {
      en: `Flowbox alert: ${CATEGORY_NAMES.en[category]}`,
      fr: `Alerte Flowbox : ${CATEGORY_NAMES.fr[category]}`,
    },
    enabled: true,
    premium_only: DEFAULT_PREMIUM_ONLY.includes(category),
    email: true,
    critical: CRITICAL_ALERT_CATEGORIES.includes(category),
  };
}

function fromRow(row: CategorySettingRow): AlertCategorySetting {
  return {
    category: row.category,
    subject: { en: row.subjectEn, fr: row.subjectFr },
    enabled: row.enabled,
    premium_only: row.premiumOnly,
    email: row.email,
    critical: CRITICAL_ALERT_CATEGORIES.includes(row.category),
  };
}

export async function categorySetting(db: Db, category: AlertCategory): Promise<AlertCategorySetting> {
  const row = await findCategorySettingRow(db, category);
  return row ? fromRow(row) : defaultCategorySetting(category);
}

export async function allCategorySettings(db: Db): Promise<AlertCategorySetting[]> {
  const rows = new Map((await listCategorySettingRows(db)).map((r) => [r.category, fromRow(r)]));
  return ALERT_CATEGORIES.map((c) => rows.get(c) ?? defaultCategorySetting(c));
}

export async function saveCategorySetting(db: Db, setting: AlertCategorySetting, now: Date): Promise<void> {
  const values = {
    subjectEn: setting.subject.en,
    subjectFr: setting.subject.fr,
    enabled: setting.enabled,
    premiumOnly: setting.premium_only,
    email: setting.email,
    updatedAt: now,
  };
  await upsertCategorySetting(db, setting.category, values);
}
