import type { ConsumptionWindow } from '@flowbox/shared';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import { targetPath, type ConsumptionTarget } from './target.ts';

/** A file name part from a scope's name: "Bâtiment A" → "batiment-a". */
export function fileStemOf(name: string): string {
  const stem = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return stem || 'consumption';
}

/**
 * The CSV of a scope and window. Fetched with the Bearer (a plain link could not send it), then
 * saved as a file named after the scope, window and day.
 */
export async function downloadConsumptionCsv(
  target: ConsumptionTarget,
  window: ConsumptionWindow,
  fileStem: string,
): Promise<void> {
  const blob = await api.blob(`${targetPath(target)}/consumption/export.csv?window=${window}`);
  const day = new Date().toISOString().slice(0, 10);
  saveBlob(blob, `${fileStem}-${window}-${day}.csv`);
}

export const useDownloadConsumptionCsv = (target: ConsumptionTarget, fileStem: string) =>
  useMutation({
    mutationFn: (window: ConsumptionWindow) => downloadConsumptionCsv(target, window, fileStem),
  });
