import type { Site } from '@flowbox/shared';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ImageUpload } from '../../../components/images/ImageUpload.tsx';

/** The site's logo and plan, shown to all who see the site; replaced by those who may edit it. */
export function SiteImages({
  customerId,
  site,
  canUpload,
}: {
  customerId: string;
  site: Site;
  canUpload: boolean;
}) {
  const { t } = useLanguage();
  return (
    <Card title={t('images.section')}>
      <div className="grid grid-cols-1 gap-6 md:grid-cols-2">
        <ImageUpload
          target={{ owner: 'site', customerId, siteId: site.id, kind: 'logo' }}
          label={t('images.logo')}
          alt={t('images.logo_alt', { name: site.name })}
          url={site.logo}
          canUpload={canUpload}
        />
        <ImageUpload
          target={{ owner: 'site', customerId, siteId: site.id, kind: 'plan' }}
          label={t('images.plan')}
          alt={t('images.plan_alt', { name: site.name })}
          url={site.plan}
          canUpload={canUpload}
        />
      </div>
    </Card>
  );
}
