import { PEOPLE_ROLE_NAMES, ROLES, type PeopleRoleName, type Person, type User } from '@flowbox/shared';
import { useCallback, useId, useState } from 'react';
import { Link } from 'react-router';
import { CardList } from '../../../components/CardList.tsx';
import { UserStatusBadge } from '../../../components/UserStatusBadge.tsx';
import { Pagination } from '../../../components/DataTable.tsx';
import { EmptyState } from '../../../components/EmptyState.tsx';
import { PageHeader } from '../../../components/PageHeader.tsx';
import { QueryBoundary } from '../../../components/QueryBoundary.tsx';
import { SearchField } from '../../../components/SearchField.tsx';
import { Select } from '../../../components/Select.tsx';
import { TableScroll } from '../../../components/TableScroll.tsx';
import { buttonClass } from '../../../components/Button.tsx';
import { formatDateTime } from '../../../lib/dates.ts';
import { useLanguage } from '../../../lib/i18n/index.ts';
import { paths } from '../../../paths.ts';
import { useUser } from '../../auth/index.ts';
import { fullName } from '../../managers/index.ts';
import { usePeople } from '../api/list-people.ts';
import { createEntries, personLinks } from '../links.ts';

const PAGE_SIZE = 25;

const LINK =
  'rounded text-sm font-medium text-sky-700 hover:underline focus-visible:outline-2 focus-visible:outline-sky-600 dark:text-sky-400';

/** The roles a viewer may meet in its scope (the server scopes; this only trims the filter). */
function rolesSeenBy(viewer: User): readonly PeopleRoleName[] {
  if (viewer.role === ROLES.flovea_manager) return PEOPLE_ROLE_NAMES;
  if (viewer.role === ROLES.customer_manager) return PEOPLE_ROLE_NAMES.filter((r) => r !== 'flovea_manager');
  return ['site_manager', 'end_user', 'plumber'];
}

/** `/users` (issue 18): everyone with access to the viewer's scope, across the five roles. */
export function PeoplePage() {
  const { t } = useLanguage();
  const viewer = useUser();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState<PeopleRoleName | ''>('');
  const [offset, setOffset] = useState(0);
  const people = usePeople({ search, role: role || undefined, limit: PAGE_SIZE, offset });
  const onSearch = useCallback((text: string) => {
    setSearch(text);
    setOffset(0);
  }, []);
  const filtered = Boolean(search || role);
  return (
    <>
      <PageHeader
        title={t('people.title')}
        description={t('people.description')}
        actions={<CreateMenu viewer={viewer} />}
      />
      <div className="flex flex-col gap-x-4 sm:flex-row sm:items-end">
        <div className="min-w-0 sm:w-80">
          <SearchField label={t('people.search')} onSearch={onSearch} />
        </div>
        <Select
          label={t('people.role_filter')}
          name="role"
          className="mb-4 sm:w-60"
          placeholder={t('people.all_roles')}
          value={role}
          onChange={(event) => {
            setRole(event.target.value as PeopleRoleName | '');
            setOffset(0);
          }}
          options={rolesSeenBy(viewer).map((r) => ({ value: r, label: t(`role.${r}`) }))}
        />
      </div>
      <QueryBoundary query={people}>
        {(data) =>
          data.items.length === 0 ? (
            filtered ? (
              <EmptyState title={t('people.no_match')} />
            ) : (
              <EmptyState title={t('people.empty')}>{t('people.empty_hint')}</EmptyState>
            )
          ) : (
            <>
              <p className="mb-2 text-sm text-slate-600 dark:text-slate-400" aria-live="polite">
                {t('people.count', { count: data.total })}
              </p>
              <PeopleTable people={data.items} viewer={viewer} />
              <PeopleCards people={data.items} viewer={viewer} />
              <Pagination offset={offset} limit={PAGE_SIZE} total={data.total} onChange={setOffset} />
            </>
          )
        }
      </QueryBoundary>
    </>
  );
}

/** The existing add pages, one per family, behind one button (a disclosure, keyboard-usable). */
function CreateMenu({ viewer }: { viewer: User }) {
  const { t } = useLanguage();
  const entries = createEntries(viewer);
  const menuId = useId();
  if (entries.length === 0) return null;
  return (
    <details className="relative">
      <summary className={`${buttonClass('primary')} cursor-pointer list-none`} aria-controls={menuId}>
        {t('people.create')}
        <span aria-hidden="true" className="ml-2">
          ▾
        </span>
      </summary>
      <ul
        id={menuId}
        className="absolute right-0 z-20 mt-2 w-72 max-w-[calc(100vw-2rem)] rounded-lg border border-slate-200 bg-white p-1 shadow-lg dark:border-slate-700 dark:bg-slate-900"
      >
        {entries.map((entry) => (
          <li key={entry.label}>
            <Link
              to={entry.to}
              className="block rounded-md px-3 py-2 text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-sky-600 dark:hover:bg-slate-800"
            >
              {t(entry.label)}
            </Link>
          </li>
        ))}
      </ul>
    </details>
  );
}

type ListProps = { people: readonly Person[]; viewer: User };

function useLastLogin() {
  const { t, language } = useLanguage();
  return (person: Person) =>
    person.last_login_at ? formatDateTime(person.last_login_at, language) : t('people.never');
}

function placesOf(person: Person): string {
  return [...person.sites, ...person.zones].map((p) => p.name).join(', ');
}

function PersonActions({ person, viewer }: { person: Person; viewer: User }) {
  const { t } = useLanguage();
  const name = fullName(person);
  if (person.id === viewer.id)
    return (
      <Link to={paths.profile.getHref()} className={LINK}>
        {t('people.your_profile')}
      </Link>
    );
  const links = personLinks(person, viewer);
  if (!links.edit && !links.permissions) return <span className="text-xs text-slate-500">—</span>;
  return (
    <div className="flex flex-wrap gap-x-3 gap-y-1">
      {links.edit && (
        <Link to={links.edit} className={LINK} aria-label={t('people.edit_of', { name })}>
          {t('people.edit')}
        </Link>
      )}
      {links.permissions && (
        <Link to={links.permissions} className={LINK} aria-label={t('people.permissions_of', { name })}>
          {t('people.permissions')}
        </Link>
      )}
    </div>
  );
}

function CustomerName({ person }: { person: Person }) {
  const { t } = useLanguage();
  return <>{person.customer_name ?? t('people.provider')}</>;
}

/** Desktop: a semantic table, one row header (the name) per person. */
function PeopleTable({ people, viewer }: ListProps) {
  const { t } = useLanguage();
  const lastLogin = useLastLogin();
  const head =
    'px-4 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase dark:text-slate-300';
  return (
    <TableScroll
      label={t('people.caption')}
      className="hidden overflow-hidden rounded-xl border border-slate-200 bg-white shadow-sm md:block dark:border-slate-800 dark:bg-slate-900"
    >
      <table className="min-w-full divide-y divide-slate-200 text-sm dark:divide-slate-800">
        <caption className="sr-only">{t('people.caption')}</caption>
        <thead className="bg-slate-50 dark:bg-slate-800/60">
          <tr>
            <th scope="col" className={head}>
              {t('fields.name')}
            </th>
            <th scope="col" className={head}>
              {t('people.role')}
            </th>
            <th scope="col" className={head}>
              {t('people.customer')}
            </th>
            <th scope="col" className={head}>
              {t('fields.last_logged_in')}
            </th>
            <th scope="col" className={head}>
              {t('managers.status')}
            </th>
            <th scope="col" className={head}>
              {t('people.actions')}
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100 dark:divide-slate-800">
          {people.map((person) => (
            <tr key={person.id} className="hover:bg-slate-50 dark:hover:bg-slate-800/40">
              <th scope="row" className="min-w-48 px-4 py-3 text-left align-middle font-medium">
                <span className="block">
                  {fullName(person)}
                  {person.id === viewer.id && (
                    <span className="ml-2 text-xs font-normal text-slate-500">({t('people.you')})</span>
                  )}
                </span>
                <span className="block font-normal break-all text-slate-600 dark:text-slate-400">
                  {person.email}
                </span>
              </th>
              <td className="px-4 py-3 align-middle">{t(`role.${person.role_name}`)}</td>
              <td className="px-4 py-3 align-middle">
                <span className="block">
                  <CustomerName person={person} />
                </span>
                {placesOf(person) && (
                  <span className="block text-xs text-slate-500 dark:text-slate-400">
                    <span className="sr-only">{t('people.places')}: </span>
                    {placesOf(person)}
                  </span>
                )}
              </td>
              <td className="px-4 py-3 align-middle whitespace-nowrap">{lastLogin(person)}</td>
              <td className="px-4 py-3 align-middle">
                <UserStatusBadge status={person.status} />
              </td>
              <td className="px-4 py-3 align-middle">
                <PersonActions person={person} viewer={viewer} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableScroll>
  );
}

/** Phone: one card per person, the same facts as labelled pairs. */
function PeopleCards({ people, viewer }: ListProps) {
  const { t } = useLanguage();
  const lastLogin = useLastLogin();
  return (
    <CardList
      label={t('people.caption')}
      rows={people}
      rowKey={(person) => person.id}
      title={(person) => (
        <>
          {fullName(person)}
          {person.id === viewer.id && (
            <span className="ml-2 text-xs font-normal text-slate-500">({t('people.you')})</span>
          )}
        </>
      )}
      aside={(person) => <UserStatusBadge status={person.status} />}
      summary={(person) => <span className="break-all">{person.email}</span>}
      fields={(person) => [
        { key: 'role', label: t('people.role'), value: t(`role.${person.role_name}`) },
        { key: 'customer', label: t('people.customer'), value: <CustomerName person={person} /> },
        { key: 'places', label: t('people.places'), value: placesOf(person) },
        { key: 'last', label: t('fields.last_logged_in'), value: lastLogin(person) },
      ]}
      actions={(person) => <PersonActions person={person} viewer={viewer} />}
    />
  );
}
