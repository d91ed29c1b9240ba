import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { PageFrame } from './PageFrame.tsx';

const PARAGRAPHS = [1, 2, 3, 4] as const;

/** A short public text page: a title and four paragraphs from the catalogue (`<prefix>.title`, `<prefix>.p1`…). */
export function StaticPage({ prefix }: { prefix: 'terms' | 'privacy' }) {
  const { t } = useTranslation();
  const title = t(`${prefix}.title`);
  useDocumentTitle(title);
  return (
    <PageFrame wide>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <div className="mt-4 space-y-3 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
        {PARAGRAPHS.map((paragraph) => (
          <p key={paragraph}>{t(`${prefix}.p${paragraph}`)}</p>
        ))}
      </div>
    </PageFrame>
  );
}

export const TermsPage = () => <StaticPage prefix="terms" />;
export const PrivacyPage = () => <StaticPage prefix="privacy" />;
