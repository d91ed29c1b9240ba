export { CallPlumberButton } from './components/CallPlumber.tsx';
export { useMapSettings, usePlumbers, useSiteMap } from './api/plumbers.ts';
export { telHref } from './tel.ts';
