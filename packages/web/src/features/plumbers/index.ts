export { useNearestPlumbers } from './api/list-nearest-plumbers.ts';
export { usePlumbers } from './api/list-plumbers.ts';
export { telHref } from './tel.ts';
