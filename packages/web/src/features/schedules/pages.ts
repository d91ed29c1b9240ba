export { ScheduleAddPage } from './components/ScheduleAddPage.tsx';
export { ScheduleEditPage } from './components/ScheduleEditPage.tsx';
