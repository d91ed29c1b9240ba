/*
 * Flowbox Manager's service worker (docs/push.md "The web app"), served at the root so that its
 * scope is the whole app. It does three things and nothing else:
 *
 * 1. Offline start: a page load that cannot reach the server gets the offline page from the shell
 *    cached at install (the page and its own style, script and icons, each served from the cache
 *    only when the network fails). Nothing else is cached, the API's answers least of all: every
 *    call goes to the network as it would without a worker.
 * 2. `push`: an alert's message (PushAlertPayload, packages/shared/src/api/push.ts) becomes a
 *    notification, one per alert (its tag), kept on screen when the alert is critical.
 * 3. `notificationclick`: an action ("Close the water", "It's me", "Snooze 1 h") is carried out
 *    with the user's own session while the app opens at the alert's page; a tap just opens it there.
 *
 * A worker cannot read the page's memory nor `document.cookie`: it reads the session's cookies with
 * the Cookie Store API, sends the access token as the Bearer, as the page does, and on a 401 renews
 * the tokens with the refresh token and writes both back, as another tab would (docs/push.md
 * "Actions from a notification"). Where a browser has no Cookie Store in workers, or the session
 * ended, the app opens at the alert instead, where the person acts after signing in.
 */

const SHELL_CACHE = 'flowbox-shell-v1';
const OFFLINE_PAGE = '/offline.html';
const SHELL = [
  OFFLINE_PAGE,
  '/offline.css',
  '/offline.js',
  '/favicon.svg',
  '/manifest.webmanifest',
  '/icons/icon-192.png',
];

/** The cookies the web app keeps its session in (packages/web/src/lib/tokens.ts). */
const ACCESS_COOKIE = 'access_token';
const REFRESH_COOKIE = 'refresh_token';
const COOKIE_LIFETIME_MS = 30 * 24 * 3600 * 1000;
/** The access token this worker renewed for the action under way, whether or not its cookie took it. */
let renewedToken;

/** What the worker says itself, in the recipient's language (the payload's). */
const TEXTS = {
  en: {
    failed: 'Flowbox Manager could not do it',
    failed_body: 'Open the app to act on the alert.',
  },
  fr: {
    failed: 'Flowbox Manager n’a pas pu le faire',
    failed_body: 'Ouvrez l’application pour agir sur l’alerte.',
  },
};

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(SHELL_CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys();
      await Promise.all(names.filter((name) => name !== SHELL_CACHE).map((name) => caches.delete(name)));
      if (self.registration.navigationPreload) await self.registration.navigationPreload.enable();
      await self.clients.claim();
    })(),
  );
});

self.addEventListener('fetch', (event) => {
  const { request } = event;
  if (request.mode === 'navigate') {
    event.respondWith(pageOrOffline(event));
    return;
  }
  // The offline page's own files, from the cache when the network fails. Nothing else is touched:
  // scripts, styles, images and the API go to the network as they would without a worker.
  const url = new URL(request.url);
  if (request.method === 'GET' && url.origin === self.location.origin && SHELL.includes(url.pathname))
    event.respondWith(fetch(request).catch(() => fromShell(request)));
});

/** A page load from the network; the offline page when the server cannot be reached. */
async function pageOrOffline(event) {
  try {
    return (await event.preloadResponse) || (await fetch(event.request));
  } catch {
    return fromShell(OFFLINE_PAGE);
  }
}

async function fromShell(request) {
  return (await caches.match(request, { cacheName: SHELL_CACHE, ignoreVary: true })) || Response.error();
}

self.addEventListener('push', (event) => {
  const payload = alertOf(event.data);
  if (payload) event.waitUntil(showAlert(payload));
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  event.waitUntil(answerNotification(event.notification.data, event.action));
});

/** The alert a push message carries; a message of another kind, or unreadable, shows nothing. */
function alertOf(data) {
  try {
    const payload = data && data.json();
    return payload && payload.type === 'alert' && typeof payload.title === 'string' ? payload : null;
  } catch {
    return null;
  }
}

/** One notification per alert: a second message of the same alert replaces the first. */
function showAlert(payload) {
  return self.registration.showNotification(payload.title, {
    body: payload.body,
    tag: payload.alert_id,
    data: payload,
    lang: payload.language,
    icon: '/icons/icon-192.png',
    timestamp: Date.parse(payload.opened_at) || Date.now(),
    requireInteraction: payload.critical === true,
    actions: (payload.actions || []).map(({ action, title }) => ({ action, title })),
  });
}

/**
 * A tap on the notification, or on one of its actions: the action, with the user's session, and
 * the app opened at the alert's page. The window is opened while the action runs, not after: a
 * browser lets a worker open or focus a window only for a few seconds after the tap, which an
 * action's calls (and a session to renew) could outlast. Also what the browser tests call.
 */
async function answerNotification(payload, action) {
  if (!payload || typeof payload.url !== 'string') return;
  renewedToken = undefined;
  // Opened: its escalation to the next channel and to the zone's managers stops for this person
  // (docs/alerts.md "Escalation"). The page at the alert says so too, once it loads.
  const opening = apiCall(payload, 'POST', '/alerts/opened', { alert_ids: [payload.alert_id] }).catch(
    () => undefined,
  );
  const run = Object.hasOwn(ACTIONS, action) ? ACTIONS[action] : undefined;
  // After the opening call, not beside it: a session to renew is renewed once, by the first call.
  const acting = opening.then(() =>
    run
      ? run(payload).then(
          () => true,
          () => false,
        )
      : true,
  );
  await openApp(payload.url);
  if (!(await acting)) await tellFailure(payload);
}

const ACTIONS = {
  close_water: closeWater,
  its_me: (payload) => apiCall(payload, 'POST', `/alerts/${payload.alert_id}/answer`, { answer: 'me' }),
  snooze_1h: (payload) => apiCall(payload, 'POST', `/alerts/${payload.alert_id}/snooze`, { minutes: 60 }),
};

/**
 * "Close the water": the valve of every ready flowbox of the alert's zone that is not closed, by
 * the call the zone's page makes (a `valve_close` command), under the user's own permissions.
 */
async function closeWater(payload) {
  const alert = await apiCall(payload, 'GET', `/alerts/${payload.alert_id}/info`);
  const zone = `/customers/${alert.customer_id}/sites/${alert.site_id}/buildings/${alert.building_id}/zones/${alert.zone_id}`;
  const { items } = await apiCall(payload, 'GET', `${zone}/flowboxes/list`);
  const open = items.filter((flowbox) => flowbox.pairing_state === 'ready' && flowbox.valve !== 'closed');
  if (open.length === 0 && !items.some((flowbox) => flowbox.valve === 'closed')) throw new Error('no valve');
  await Promise.all(
    open.map((flowbox) =>
      apiCall(payload, 'POST', `${zone}/flowboxes/${flowbox.id}/commands/send`, { name: 'valve_close' }),
    ),
  );
}

/** Calls the API as the signed-in user: the access token's Bearer, renewed once on a 401. */
async function apiCall(payload, method, path, body) {
  const send = (token) =>
    fetch(`/v1${path}`, {
      method,
      headers: {
        Accept: 'application/json',
        'Accept-Language': payload.language || 'en',
        ...(token ? { Authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  let response = await send(renewedToken ?? (await cookie(ACCESS_COOKIE)));
  if (response.status === 401) {
    const renewed = await renewTokens();
    if (renewed) response = await send(renewed);
  }
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
  return response.status === 204 ? undefined : response.json();
}

/**
 * The refresh call the page makes (spec §4): the refresh token is the Bearer; both new tokens are
 * written back to the cookies, so the page goes on with them. Undefined when the session is over.
 */
async function renewTokens() {
  const refresh = await cookie(REFRESH_COOKIE);
  if (!refresh) return undefined;
  const response = await fetch('/v1/users/refresh', {
    method: 'POST',
    headers: { Accept: 'application/json', Authorization: `Bearer ${refresh}` },
  });
  if (!response.ok) return undefined;
  const tokens = await response.json();
  renewedToken = tokens.access_token;
  await saveCookie(ACCESS_COOKIE, tokens.access_token);
  await saveCookie(REFRESH_COOKIE, tokens.refresh_token);
  return tokens.access_token;
}

async function cookie(name) {
  if (!self.cookieStore) return undefined;
  const found = await self.cookieStore.get(name);
  return found ? found.value : undefined;
}

/** As the page writes them (tokens.ts): path /, SameSite strict, thirty days. */
function saveCookie(name, value) {
  return self.cookieStore.set({
    name,
    value,
    path: '/',
    sameSite: 'strict',
    expires: Date.now() + COOKIE_LIFETIME_MS,
  });
}

/** Says an action failed, in the alert's own notification (its tag), without its buttons. */
function tellFailure(payload) {
  const texts = TEXTS[payload.language] || TEXTS.en;
  return self.registration.showNotification(texts.failed, {
    body: `${payload.title}\n${texts.failed_body}`,
    tag: payload.alert_id,
    data: { ...payload, actions: [] },
    lang: payload.language,
    icon: '/icons/icon-192.png',
  });
}

/** Focuses a window of the app, taken to `url`, or opens one there. */
async function openApp(url) {
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  try {
    if (!open) {
      await self.clients.openWindow(url);
      return;
    }
    const shown = open.url === url ? open : ((await open.navigate(url)) ?? open);
    await shown.focus();
  } catch {
    // Only a tap lets a worker open or focus a window (the browser tests call this without one).
  }
}
