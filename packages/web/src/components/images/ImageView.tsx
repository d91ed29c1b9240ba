import { useTranslation } from 'react-i18next';
import { Spinner } from '../Spinner.tsx';
import { useImage } from '../../lib/images/get-image.ts';

type ImageViewProps = {
  /** The record's URL path of the image (`/v1/images/<id>`), or null when none was uploaded. */
  url: string | null;
  alt: string;
  className?: string;
};

/** A stored image, loaded with the token and shown through a blob: URL. */
export function ImageView({ url, alt, className = 'max-h-64' }: ImageViewProps) {
  const { t } = useTranslation();
  const image = useImage(url);
  if (!url) return <p className="text-sm text-slate-500 dark:text-slate-400">{t('images.none')}</p>;
  if (image.isError) return <p className="text-sm text-red-700 dark:text-red-400">{image.error.message}</p>;
  if (!image.data) return <Spinner label={t('common.loading')} />;
  return (
    <img
      src={image.data}
      alt={alt}
      className={`w-auto max-w-full rounded-lg border border-slate-200 object-contain dark:border-slate-700 ${className}`}
    />
  );
}
