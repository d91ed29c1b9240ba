import type { ErrorCode } from '@flowbox/shared';

/**
 * The HTTP status of each catalogue code the server answers with: the one place a status is chosen
 * (issue #14), so the same code always answers the same status.
 */
const STATUS_OF = {
  'errors.validation': 400,
  'errors.names_mismatch': 400,
  'errors.wrong_current_password': 400,
  'errors.cannot_delete_self': 400,
  'errors.invalid_site_list': 400,
  'errors.invalid_alert_zones': 400,
  'errors.invalid_report_recipients': 400,
  // spec §8 "firmware naming not correct": the uploaded file's name does not say what it declares.
  'errors.firmware_naming': 400,
  'errors.firmware_empty': 400,
  // A multipart field after the firmware file: read too late to be checked (docs/firmware.md).
  'errors.firmware_fields_after_file': 400,
  // The token of an emailed link (spec §5 `set_password`, `reset_password`): a field of a public
  // form. A bearer token that is not valid is an expired authentication (401), which the web
  // answers with the refresh flow (spec §4).
  'errors.invalid_token': 400,
  'errors.auth_expired': 401,
  'errors.login_failed': 401,
  // A firmware download's HTTP Basic serial:secret (docs/firmware.md "Device protocol").
  'errors.device_auth_failed': 401,
  'errors.forbidden': 403,
  'errors.premium_required': 403,
  // docs/permissions.md "Granting permissions": in scope, but granting what one does not hold.
  'errors.permission_not_held': 403,
  'errors.not_found': 404,
  'errors.email_taken': 409,
  'errors.no_action_allowed': 409,
  'errors.automatic_closing_not_triggered': 409,
  'errors.alert_state': 409,
  // "Was this you?" on an alert that is not a leak or an abnormal use (issue 33).
  'errors.alert_not_answerable': 409,
  // docs/webhooks.md: WEBHOOKS_PER_CUSTOMER_MAX.
  'errors.webhook_limit': 409,
  'errors.no_pricing_plans': 409,
  'errors.pricing_plan_unavailable': 409,
  'errors.pricing_plan_in_use': 409,
  'errors.zone_without_subscription': 409,
  'errors.flowbox_model_mismatch': 409,
  'errors.water_temperature_mismatch': 409,
  'errors.flowbox_already_paired': 409,
  'errors.pairing_step': 409,
  'errors.registration_decided': 409,
  'errors.invalid_zone_list': 400,
  'errors.flowbox_not_ready': 409,
  'errors.valve_command_pending': 409,
  'errors.scheduled_closing_not_authorised': 409,
  'errors.firmware_duplicate': 409,
  'errors.firmware_withdrawn': 409,
  'errors.firmware_incompatible': 409,
  'errors.firmware_update_running': 409,
  'errors.firmware_zone_locked': 409,
  'errors.firmware_in_rollout': 409,
  'errors.firmware_opening_hours': 409,
  'errors.rollout_no_devices': 409,
  'errors.rollout_state': 409,
  // The update of a firmware download URL is final or cancelled: the URL will never work again.
  'errors.firmware_download_gone': 410,
  'errors.payload_too_large': 413,
  'errors.image_too_large': 413,
  'errors.firmware_too_large': 413,
  'errors.file_too_large': 413,
  // A request body in a media type no route takes (JSON, or multipart for uploads).
  'errors.unsupported_media_type': 415,
  'errors.image_type': 415,
  'errors.range_not_satisfiable': 416,
  'errors.too_many_attempts': 429,
  'errors.rate_limited': 429,
  // docs/permissions.md "Live updates": a user's streams open at once on an instance.
  'errors.live_streams_limit': 429,
  'errors.api_error': 500,
  'errors.service_unavailable': 503,
} as const satisfies Partial<Record<ErrorCode, number>>;

/** A catalogue code the server may answer with: one that has its status. */
export type ServerErrorCode = keyof typeof STATUS_OF;
type CodeWithStatus<S extends number> = {
  [C in ServerErrorCode]: (typeof STATUS_OF)[C] extends S ? C : never;
}[ServerErrorCode];

export function statusOf(code: ServerErrorCode): number {
  return STATUS_OF[code];
}

/** Whether the server answers with this catalogue code, that is whether it has its status. */
export function hasStatus(code: string): code is ServerErrorCode {
  return Object.hasOwn(STATUS_OF, code);
}

/** A failure the user should read: a catalogue code, whose status is its own (STYLE.md: typed errors). */
export class AppError extends Error {
  readonly status: number;

  constructor(
    readonly code: ServerErrorCode,
    readonly params: Record<string, string | number> = {},
    readonly details?: { path: string; message: string; params?: Record<string, string | number> }[],
  ) {
    super(code);
    this.status = statusOf(code);
  }
}

/** A 429: the caller may try again in `retryAfterS` seconds, sent as `Retry-After` (RFC 9110 §10.2.3). */
export class TooManyRequests extends AppError {
  constructor(
    code: CodeWithStatus<429>,
    readonly retryAfterS: number,
    params: Record<string, string | number> = {},
  ) {
    super(code, params);
  }
}

/** A 416: the range asked for starts past the file's end; its Content-Range gives the size (RFC 9110 §15.5.17). */
export class RangeNotSatisfiable extends AppError {
  constructor(readonly size: number) {
    super('errors.range_not_satisfiable');
  }
}

export const forbidden = () => new AppError('errors.forbidden');
export const notFound = () => new AppError('errors.not_found');
export const namesMismatch = () => new AppError('errors.names_mismatch');
