import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api-client.ts';
import { saveBlob } from '../../../lib/save-blob.ts';
import type { FleetFilters } from './list-fleet.ts';

/** The CSV of the filtered list, fetched with the Bearer (a plain link could not send it). */
export const useDownloadFleetCsv = () =>
  useMutation({
    mutationFn: async (filters: FleetFilters) => {
      const query = new URLSearchParams(filters as Record<string, string>).toString();
      const blob = await api.blob(`/fleet/export.csv${query ? `?${query}` : ''}`);
      saveBlob(blob, `fleet-${new Date().toISOString().slice(0, 10)}.csv`);
    },
  });
