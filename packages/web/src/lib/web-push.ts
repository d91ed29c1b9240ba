import type { PushKey, PushSubscriptionInfo } from '@flowbox/shared';
import { api, ApiRequestError } from './api-client.ts';

/*
 * This browser and Web Push (docs/push.md "The web app"): the service worker (public/sw.js), and
 * this browser's subscription, made with the server's VAPID key and told to the server. The
 * profile's "Notifications on this device" shows and changes it; sign-out withdraws it.
 */

/**
 * What this browser can do: `ios_home_screen` is Safari on iPhone or iPad outside a Home Screen
 * app (iOS pushes only to those); `blocked`, the person refused notifications to the site.
 */
export type PushSupport = 'supported' | 'unsupported' | 'ios_home_screen' | 'blocked';

const WORKER_URL = '/sw.js';

function pushApis(): boolean {
  return 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function isAppleMobile(): boolean {
  // iPadOS says it is a Mac: a Mac with a touch screen is an iPad.
  return (
    /iPad|iPhone|iPod/.test(navigator.userAgent) ||
    (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1)
  );
}

function isHomeScreenApp(): boolean {
  return (
    window.matchMedia('(display-mode: standalone)').matches ||
    (navigator as Navigator & { standalone?: boolean }).standalone === true
  );
}

export function pushSupport(): PushSupport {
  if (!pushApis()) return isAppleMobile() && !isHomeScreenApp() ? 'ios_home_screen' : 'unsupported';
  return Notification.permission === 'denied' ? 'blocked' : 'supported';
}

/** This browser's push subscription, when it has one. */
async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushApis()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return (await registration?.pushManager.getSubscription()) ?? null;
}

/** The endpoint this browser is subscribed with, if any: the server's list says whether it is known there. */
export async function thisBrowserEndpoint(): Promise<string | null> {
  return (await currentSubscription())?.endpoint ?? null;
}

/** The person did not allow notifications when the browser asked. */
export class PushDeniedError extends Error {
  constructor() {
    super('notifications not allowed');
    this.name = 'PushDeniedError';
  }
}

function bytesOf(base64Url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64Url
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(base64Url.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

function sameKey(key: ArrayBuffer | null, wanted: Uint8Array): boolean {
  if (!key || key.byteLength !== wanted.byteLength) return false;
  const bytes = new Uint8Array(key);
  return bytes.every((byte, i) => byte === wanted[i]);
}

/**
 * Subscribes this browser and tells the server. `permission` is the browser's answer, asked by the
 * button's click itself (Safari asks only within a tap). A subscription made with another key (the
 * server's pair changed) is replaced.
 */
export async function subscribeThisBrowser(
  permission: Promise<NotificationPermission>,
): Promise<PushSubscriptionInfo> {
  if ((await permission) !== 'granted') throw new PushDeniedError();
  await navigator.serviceWorker.register(WORKER_URL, { scope: '/' });
  const registration = await navigator.serviceWorker.ready;
  const { public_key } = await api.get<PushKey>('/push/key');
  const key = bytesOf(public_key);
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, key)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: key,
  });
  const { endpoint, keys } = subscription.toJSON();
  return api.post<PushSubscriptionInfo>('/push/subscriptions', { endpoint, keys });
}

/** Removes one of the user's browsers on the server; one already gone is as good. */
export async function removePushSubscription(endpoint: string): Promise<void> {
  try {
    await api.delete<void>('/push/subscriptions', { endpoint });
  } catch (error) {
    if (!(error instanceof ApiRequestError && error.status === 404)) throw error;
  }
}

/**
 * This browser stops receiving notifications: the server forgets it, then the browser drops its
 * subscription. At sign-out too, so that a shared computer stops telling the person who left.
 */
export async function unsubscribeThisBrowser(): Promise<void> {
  const subscription = await currentSubscription();
  if (!subscription) return;
  await removePushSubscription(subscription.endpoint);
  await subscription.unsubscribe();
}
