import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import type { FleetFilters } from './list-fleet.ts';

/** Saves bytes under a file name, through a temporary blob: URL. */
function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.append(link);
  link.click();
  link.remove();
  window.setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The CSV of the filtered list, fetched with the Bearer (a plain link could not send it). */
export const useDownloadFleetCsv = () =>
  useMutation({
    mutationFn: async (filters: FleetFilters) => {
      const query = new URLSearchParams(filters as Record<string, string>).toString();
      const blob = await api.blob(`/fleet/export.csv${query ? `?${query}` : ''}`);
      saveBlob(blob, `fleet-${new Date().toISOString().slice(0, 10)}.csv`);
    },
  });
