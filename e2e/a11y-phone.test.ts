import { describeWalks } from './a11y-walk.ts';

// Issue 18's pages at 390 px, in French and in English (e2e/a11y-walk.ts).
describeWalks('Accessibility phone', [
  { language: 'Français', width: 390 },
  { language: 'English', width: 390 },
]);
