import { grantablePermissions, type PermissionSet, type User } from '@flowbox/shared';
import { useState, type FormEvent } from 'react';
import { Alert } from '../../../components/Alert.tsx';
import { Button, ButtonLink } from '../../../components/Button.tsx';
import { FormActions } from '../../../components/FormActions.tsx';
import { errorMessage } from '../../../lib/forms.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { useUser } from '../../auth/index.ts';

type PermissionsFormProps = {
  manager: User;
  cancelTo: string;
  onSubmit: (permissions: PermissionSet) => Promise<unknown>;
};

/** spec §6: each permission authorised or denied; a permission only narrows what the role allows. */
export function PermissionsForm({ manager, cancelTo, onSubmit }: PermissionsFormProps) {
  const { t } = useLanguage();
  // The server refuses a change to one's own permissions (spec §6): say so instead of offering it.
  const own = useUser().id === manager.id;
  const [values, setValues] = useState<PermissionSet>(manager.permissions);
  const [failure, setFailure] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  // docs/permissions.md "Role ceiling": an end user or plumber is offered only what its role can hold
  // (the page's description says so).
  const shown = grantablePermissions(manager.role);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setFailure(null);
    setSaving(true);
    try {
      await onSubmit(values);
    } catch (error) {
      setFailure(errorMessage(error));
    } finally {
      setSaving(false);
    }
  }

  return (
    <form onSubmit={submit} className="space-y-6">
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      {own && <Alert tone="info">{t('permissions.own')}</Alert>}
      <ul className="divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white shadow-sm dark:divide-slate-800 dark:border-slate-800 dark:bg-slate-900">
        {shown.map((permission) => (
          <li key={permission} className="px-5 py-4">
            <fieldset className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
              <legend className="contents">
                <span className="block">
                  <span className="block text-sm font-semibold">{t(`permission.${permission}`)}</span>
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    {t(`permission.${permission}.hint`)}
                  </span>
                </span>
              </legend>
              <div className="flex shrink-0 gap-4">
                {(['authorised', 'denied'] as const).map((value) => (
                  <label key={value} className="flex items-center gap-2 text-sm">
                    <input
                      type="radio"
                      name={permission}
                      value={value}
                      checked={values[permission] === value}
                      disabled={own}
                      onChange={() => setValues((current) => ({ ...current, [permission]: value }))}
                      className="h-4 w-4 accent-sky-700 dark:accent-sky-400"
                    />
                    {t(`permissions.${value}`)}
                  </label>
                ))}
              </div>
            </fieldset>
          </li>
        ))}
      </ul>
      <FormActions>
        <ButtonLink to={cancelTo} variant="secondary">
          {t('common.cancel')}
        </ButtonLink>
        <Button type="submit" loading={saving} disabled={own}>
          {t('common.save')}
        </Button>
      </FormActions>
    </form>
  );
}
