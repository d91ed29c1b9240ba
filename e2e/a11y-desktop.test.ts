import { describeWalks } from './a11y-walk.ts';

// Issue 18's pages at 1280 px, in English and in French (e2e/a11y-walk.ts).
describeWalks('Accessibility desktop', [
  { language: 'English', width: 1280 },
  { language: 'Français', width: 1280 },
]);
