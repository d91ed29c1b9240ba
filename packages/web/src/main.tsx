import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { firstLanguageReady } from './lib/i18n/index.ts';
import './index.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element');

const render = () =>
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );

// In the reader's language from the first paint; if French cannot be fetched, in English rather than not at all.
void firstLanguageReady.then(render, render);

// The service worker (public/sw.js, docs/push.md): the offline page, and notifications once allowed.
// A browser that refuses it (a private window, a policy) runs the app without.
if ('serviceWorker' in navigator)
  void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
