import { useRequiredParam } from '../../../lib/params.ts';

export const useScheduleId = () => useRequiredParam('scheduleId');
