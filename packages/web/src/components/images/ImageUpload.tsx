import { ACCEPTED_IMAGE_TYPES } from '@flowbox/shared';
import { useEffect, useId, useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../Alert.tsx';
import { Button } from '../Button.tsx';
import { useToast } from '../Toasts.tsx';
import { errorMessage } from '../../lib/forms.ts';
import { useUploadImage } from '../../lib/images/upload-image.ts';
import { imageFileProblem, type ImageTarget } from '../../lib/images/images.ts';
import { ImageView } from './ImageView.tsx';

type ImageUploadProps = {
  target: ImageTarget;
  /** What the image is ("Plan", "Logo"): the heading. */
  label: string;
  /** What the image shows, for those who cannot see it ("Plan of Tower A"). */
  alt: string;
  /** The record's current image URL path, or null. */
  url: string | null;
  /** Without the right to upload, the image is only shown (the server refuses anyway). */
  canUpload: boolean;
};

/**
 * Shows an image of a customer, site or building and lets those allowed replace it: the chosen
 * file is checked (type, 5 MiB) and previewed before it is sent; the server checks it again.
 */
export function ImageUpload({ target, label, alt, url, canUpload }: ImageUploadProps) {
  const { t } = useTranslation();
  const toast = useToast();
  const inputId = useId();
  const hintId = `${inputId}-hint`;
  const input = useRef<HTMLInputElement>(null);
  const [chosen, setChosen] = useState<{ file: File; preview: string } | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const upload = useUploadImage(target);
  const previewUrl = useRef<string | null>(null);

  /** The preview's blob: URL is released as soon as it is not shown any more. */
  function showPreview(file: File | null) {
    if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    previewUrl.current = file ? URL.createObjectURL(file) : null;
    setChosen(file && previewUrl.current ? { file, preview: previewUrl.current } : null);
  }
  useEffect(
    () => () => {
      if (previewUrl.current) URL.revokeObjectURL(previewUrl.current);
    },
    [],
  );

  function reset() {
    showPreview(null);
    if (input.current) input.current.value = '';
  }

  function choose(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0] ?? null;
    setFailure(null);
    const problem = file && imageFileProblem(file);
    if (!file || problem) {
      reset();
      if (problem) setFailure(t(problem));
      return;
    }
    showPreview(file);
  }

  async function send() {
    if (!chosen) return;
    setFailure(null);
    try {
      await upload.mutateAsync(chosen.file);
      reset();
      toast.success(t('images.replaced'));
    } catch (error) {
      setFailure(errorMessage(error));
    }
  }

  return (
    <div className="space-y-3">
      <h3 className="text-sm font-semibold">{label}</h3>
      {chosen ? (
        <figure className="space-y-1">
          <img
            src={chosen.preview}
            alt={t('images.preview_alt', { label })}
            className="max-h-64 w-auto max-w-full rounded-lg border-2 border-dashed border-sky-400 object-contain"
          />
          <figcaption className="text-xs text-slate-500 dark:text-slate-400">
            {t('images.preview', { name: chosen.file.name })}
          </figcaption>
        </figure>
      ) : (
        <ImageView url={url} alt={alt} />
      )}
      {failure && <Alert title={t('dialog.error')}>{failure}</Alert>}
      {canUpload && (
        <div className="flex flex-wrap items-center gap-2">
          {chosen ? (
            <>
              <Button onClick={send} loading={upload.isPending}>
                {upload.isPending ? t('images.uploading') : t('images.upload')}
                <span className="sr-only"> ({label})</span>
              </Button>
              <Button variant="secondary" onClick={reset} disabled={upload.isPending}>
                {t('common.cancel')}
              </Button>
            </>
          ) : (
            <div>
              {/* The native input stays focusable (keyboard) though hidden; its label is the button. */}
              <div className="inline-block rounded-lg focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-sky-600">
                <label
                  htmlFor={inputId}
                  className="inline-flex cursor-pointer items-center rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100 dark:hover:bg-slate-700"
                >
                  {url ? t('images.replace') : t('images.choose')}
                  <span className="sr-only"> ({label})</span>
                </label>
                <input
                  ref={input}
                  id={inputId}
                  type="file"
                  accept={ACCEPTED_IMAGE_TYPES.join(',')}
                  aria-describedby={hintId}
                  onChange={choose}
                  className="sr-only"
                />
              </div>
              <p id={hintId} className="mt-1 text-xs text-slate-500 dark:text-slate-400">
                {t('images.hint')}
              </p>
            </div>
          )}
        </div>
      )}
    </div>
  );
}
