import { ROLES, ALERT_CATEGORIES } from '@flowbox/shared';
import { ButtonLink } from '../../../components/Button.tsx';
import { UserStatusBadge } from '../../../components/UserStatusBadge.tsx';
import { Card, DescriptionList } from '../../../components/Card.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';

export function ProfilePage() {
  const { t, language } = useLanguage();
  const user = useUser();
  const notifies = user.role !== ROLES.flovea_manager;
  return (
    <>
      <PageHeader
        title={t('profile.title')}
        description={t('profile.description')}
        actions={
          <>
            <ButtonLink to={paths.profileUpdatePassword.getHref()} variant="secondary">
              {t('profile.update_password')}
            </ButtonLink>
            <ButtonLink to={paths.profileEdit.getHref()}>{t('profile.edit')}</ButtonLink>
          </>
        }
      />
      <div className="space-y-6">
        <Card title={t('managers.section_identity')}>
          <DescriptionList
            items={[
              { label: t('fields.firstname'), value: user.firstname },
              { label: t('fields.lastname'), value: user.lastname },
              { label: t('fields.email'), value: user.email },
              { label: t('fields.role'), value: t(`role.${user.role_name}`) },
              { label: t('fields.language'), value: t(`language.${user.language}`) },
              { label: t('fields.address'), value: user.address || '—' },
              { label: t('managers.status'), value: <UserStatusBadge status={user.status} /> },
              { label: t('fields.last_logged_in'), value: formatDateTime(user.last_logged_in, language) },
            ]}
          />
        </Card>
        {notifies && (
          <Card title={t('profile.notifications')}>
            <p className="text-sm">
              {user.alert_notification_enabled ? t('profile.alerts_on') : t('profile.alerts_off')}
            </p>
            <ul className="mt-4 grid grid-cols-1 gap-2 sm:grid-cols-2">
              {ALERT_CATEGORIES.map((category) => (
                <li
                  key={category}
                  className="flex items-center justify-between gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm dark:border-slate-800"
                >
                  <span>{t(`alert.${category}`)}</span>
                  <span
                    className={
                      user.alerts_settings[category].email
                        ? 'text-emerald-700 dark:text-emerald-400'
                        : 'text-slate-500'
                    }
                  >
                    {user.alerts_settings[category].email ? t('profile.email_on') : t('profile.email_off')}
                  </span>
                </li>
              ))}
            </ul>
          </Card>
        )}
      </div>
    </>
  );
}
