import { PERMISSIONS } from '@flowbox/shared';
import type { TFunction } from 'i18next';

const isPermission = (field: string): field is (typeof PERMISSIONS)[number] =>
  (PERMISSIONS as readonly string[]).includes(field);

/**
 * A field's name as the screens call it (a permission by its name on the permissions screen, issue
 * 30: "alerts.manage"); a field added later reads as its API name until translated.
 */
export function fieldLabel(field: string, t: TFunction): string {
  if (isPermission(field)) return t(`permission.${field}`);
  return t(`event.field.${field}`, { defaultValue: field.replaceAll('_', ' ') });
}
