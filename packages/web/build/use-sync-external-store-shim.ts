// react-i18next imports the shim of `useSyncExternalStore` for React 17; React 19 has the hook
// itself, and the shim's code would be a needless part of every page's first download.
export { useSyncExternalStore } from 'react';
