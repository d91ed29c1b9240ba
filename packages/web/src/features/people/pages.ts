export { PeoplePage } from './components/PeoplePage.tsx';
export { END_USERS, PLUMBER_USERS } from './families.ts';
