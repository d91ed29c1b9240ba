import { useTranslation } from 'react-i18next';
import { useDocumentTitle } from '../../../components/PageHeader.tsx';
import { GUIDE_SECTIONS, guideEn, guideFr, type GuideBlock } from '../../../lib/i18n/guide.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { PageFrame } from './PageFrame.tsx';

const LINK =
  'text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400';

function Block({ block }: { block: GuideBlock }) {
  if ('p' in block) return <p>{block.p}</p>;
  const items = 'steps' in block ? block.steps : block.list;
  const Tag = 'steps' in block ? 'ol' : 'ul';
  return (
    <Tag className={`space-y-1 pl-5 ${'steps' in block ? 'list-decimal' : 'list-disc'}`}>
      {items.map((item) => (
        <li key={item}>{item}</li>
      ))}
    </Tag>
  );
}

/** The user documentation: contents, then a section for each role and each main task (lib/i18n/guide.ts). */
export function HelpPage() {
  const { t } = useTranslation();
  const { language } = useLanguage();
  const guide = language === 'fr' ? guideFr : guideEn;
  const title = t('help.title');
  useDocumentTitle(title);
  return (
    <PageFrame wide>
      <h1 className="text-2xl font-bold tracking-tight">{title}</h1>
      <p className="mt-2 text-sm text-slate-600 dark:text-slate-400">{t('help.intro')}</p>
      <nav
        aria-labelledby="help-contents"
        id="contents"
        className="mt-6 rounded-xl border border-slate-200 bg-slate-50 p-4 dark:border-slate-800 dark:bg-slate-800/40"
      >
        <h2
          id="help-contents"
          className="text-sm font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300"
        >
          {t('help.contents')}
        </h2>
        <ol className="mt-2 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
          {GUIDE_SECTIONS.map((id) => (
            <li key={id}>
              <a href={`#${id}`} className={LINK}>
                {guide[id].title}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      {GUIDE_SECTIONS.map((id) => (
        <section key={id} id={id} aria-labelledby={`${id}-title`} className="mt-8 scroll-mt-24">
          <h2 id={`${id}-title`} className="text-lg font-semibold tracking-tight">
            {guide[id].title}
          </h2>
          <div className="mt-2 space-y-3 text-sm leading-relaxed text-slate-700 dark:text-slate-300">
            {guide[id].blocks.map((block, index) => (
              <Block key={index} block={block} />
            ))}
          </div>
          <p className="mt-3 text-xs">
            <a href="#contents" className={LINK}>
              {t('help.back_to_contents')}
            </a>
          </p>
        </section>
      ))}
    </PageFrame>
  );
}
