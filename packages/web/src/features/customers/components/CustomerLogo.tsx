import type { Customer } from '@flowbox/shared';
import { Card } from '../../../components/Card.tsx';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { ImageUpload } from '../../../components/images/ImageUpload.tsx';

/**
 * The customer's logo. Whoever reaches the customer's screens may replace it (docs/permissions.md:
 * provider managers and the customer's own managers), so no further check is made here.
 */
export function CustomerLogo({ customer }: { customer: Customer }) {
  const { t } = useLanguage();
  return (
    <Card title={t('images.section')}>
      <ImageUpload
        target={{ owner: 'customer', customerId: customer.id, kind: 'logo' }}
        label={t('images.logo')}
        alt={t('images.logo_alt', { name: customer.name })}
        url={customer.logo}
        canUpload
      />
    </Card>
  );
}
